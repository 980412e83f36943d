/** How invoice numbers read, on screen and on the PDF. */
export function formatTaxInvoiceNumber(n: number) {
  return `TI-${String(n).padStart(6, '0')}`
}
