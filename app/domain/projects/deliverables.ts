/**
 * Deliverables (spec sections 4, 8, 9): the admin uploads the processed files
 * (category processed_deliverable) and completes the project; the client can download
 * them for one month after completion, admins always (ADR 101). Browser-safe.
 */
export const DELIVERABLE_CATEGORY = 'processed_deliverable'

export const COMPLETE_MESSAGES = {
  noFilesTitle: 'No files selected',
  noFiles: 'Please upload at least one processed file',
  errorTitle: 'Error completing project',
  failed: 'Failed to complete project',
  alreadyCompleted: 'This project is already completed',
  notReady: 'Only a paid project can be completed',
  doneTitle: 'Project Completed',
} as const

/** One calendar month after completion (the 31st of a short month ends on its last day). */
export function deliverablesAvailableUntil(completedAt: Date): Date {
  const until = new Date(completedAt.getTime())
  const day = until.getUTCDate()
  until.setUTCDate(1)
  until.setUTCMonth(until.getUTCMonth() + 1)
  const lastDay = new Date(Date.UTC(until.getUTCFullYear(), until.getUTCMonth() + 1, 0)).getUTCDate()
  until.setUTCDate(Math.min(day, lastDay))
  return until
}

/** Whether a client may still download the deliverables (admins always may). */
export function deliverablesAvailable(completedAt: Date | null, now = new Date()) {
  if (!completedAt) return true
  return now.getTime() <= deliverablesAvailableUntil(completedAt).getTime()
}
