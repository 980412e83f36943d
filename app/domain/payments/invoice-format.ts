/** How invoice numbers read, on screen and on the PDF. */
export function formatTaxInvoiceNumber(n: number) {
  return `TI-${String(n).padStart(6, '0')}`
}

/** Credit notes have their own sequence. */
export function formatCreditNoteNumber(n: number) {
  return `CN-${String(n).padStart(6, '0')}`
}
