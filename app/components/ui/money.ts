/** Rand with two decimals, as South Africans read it: R 1 234,56 (en-ZA). */
const formatter = new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR' })

export function formatRand(cents: number | null | undefined) {
  return formatter.format((cents ?? 0) / 100)
}
