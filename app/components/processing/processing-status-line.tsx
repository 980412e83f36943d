/** The client's one line on a project being processed: "Processing your survey — 62 %", linking the status page. */
import { Link } from '@remix-run/react'
import { isActiveProcessing } from '#app/domain/processing/presets.ts'
import type { ProcessingStatus } from '#db/enums.ts'

import { progressText } from './processing-panel.tsx'

export interface ProcessingSummary {
  status: ProcessingStatus
  progressPercent: number
}

export function ProcessingStatusLine({
  projectId,
  job,
}: {
  projectId: number
  job: ProcessingSummary | undefined
}) {
  if (!job || !isActiveProcessing(job.status)) return null
  return (
    <p
      className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-ink-900"
      role="status"
      data-testid="processing-status"
    >
      Processing your survey — {progressText(job.progressPercent)}.{' '}
      <Link to={`/projects/${projectId}/processing`} className="link">
        Follow it
      </Link>
    </p>
  )
}
