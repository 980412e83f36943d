/**
 * How long we keep what (POPIA s14; ADR 110 has the schedule). One source for
 * the privacy notice, the terms and the jobs that delete data.
 */
export { DATA_RETENTION } from '#app/domain/payments/terms.ts'
/** A site's survey keeps its deliverables for the next survey at most this long. */
export { SITE_WAIT_LIMIT_MONTHS } from '#app/domain/files/rules.ts'

/** Tax invoices and credit notes: the Tax Administration Act asks for five years. */
export const TAX_RECORD_RETENTION_YEARS = 5

/** The Information Regulator's contact details (published by the Regulator). */
export const INFORMATION_REGULATOR = {
  name: 'Information Regulator (South Africa)',
  address: 'JD House, 27 Stiemens Street, Braamfontein, Johannesburg, 2001',
  complaintsEmail: 'POPIAComplaints@inforegulator.org.za',
  enquiriesEmail: 'enquiries@inforegulator.org.za',
  phone: '010 023 5200',
  website: 'https://inforegulator.org.za',
} as const
