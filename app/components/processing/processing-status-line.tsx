/**
 * The client's one line on a project being processed: "Processing your survey — 62 %" while it
 * runs, "Processed — the operator is checking the results" once done and not yet delivered;
 * linking the status page.
 */
import { Link } from '@remix-run/react'
import { isActiveProcessing } from '#app/domain/processing/presets.ts'
import type { ProcessingStatus } from '#db/enums.ts'

import { progressText } from './processing-panel.tsx'

export interface ProcessingSummary {
  status: ProcessingStatus
  progressPercent: number
  delivering: boolean
}

function lineOf(job: ProcessingSummary | undefined, projectCompleted: boolean) {
  if (!job) return null
  if (isActiveProcessing(job.status)) return `Processing your survey — ${progressText(job.progressPercent)}.`
  if (job.status !== 'completed' || projectCompleted) return null
  return job.delivering
    ? 'Processed — preparing your map.'
    : 'Processed — the operator is checking the results.'
}

export function ProcessingStatusLine({
  projectId,
  job,
  projectCompleted,
}: {
  projectId: number
  job: ProcessingSummary | undefined
  projectCompleted: boolean
}) {
  const line = lineOf(job, projectCompleted)
  if (!line) return null
  return (
    <p
      className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-ink-900"
      role="status"
      data-testid="processing-status"
    >
      {line}{' '}
      <Link to={`/projects/${projectId}/processing`} className="link">
        Follow it
      </Link>
    </p>
  )
}
