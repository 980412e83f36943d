/**
 * Deliverables ("Messages", "Constants"): the admin uploads the processed files
 * (category processed_deliverable) and completes the project; the client can download
 * them for one month after completion (`deliverablesAvailableUntil` in files/rules.ts),
 * admins always. Browser-safe.
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
  failedViewsTitle: 'A viewing copy failed',
  failedViews: (names: string[]) =>
    `The viewing copy of ${names.join(', ')} failed. Replace the file, or choose to deliver without it`,
  deliverWithoutFailed:
    'Deliver without the failed viewing copies (the client can still download those files)',
} as const
