/**
 * Calendar dates as South Africans read them ('23 November 2026'), in South African time,
 * the same on the server, in e-mails, PDFs and the browser.
 */
export function formatSaDate(value: Date | string) {
  const date =
    typeof value === 'string' ? new Date(value.length === 10 ? `${value}T12:00:00Z` : value) : value
  return date.toLocaleDateString('en-ZA', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Africa/Johannesburg',
  })
}

/** The last millisecond of a South African calendar day (YYYY-MM-DD; SAST is UTC+2 all year). */
export function endOfSaDay(isoDate: string) {
  return new Date(`${isoDate}T23:59:59.999+02:00`)
}
