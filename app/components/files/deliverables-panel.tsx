/**
 * The client's deliverables on a completed project: each processed file with its
 * download, and the date until which they can be downloaded (one month after completion,
 * or later when we keep them; on a site, until a month after the site's next survey: ADR 281). After the retention job deleted them, the list stays as
 * the record, without links, with the date they were deleted.
 */
import { DeliverableFacts, useViewProgressRefresh } from '#app/components/deliverables/deliverable-facts.tsx'
import { MapViewLink } from '#app/components/mapview/map-view-link.tsx'
import type { Deliverable } from '#app/domain/deliverables/deliverable.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatFileSize } from '#app/lib/format/numbers.ts'

import { downloadHref, type ListedFile } from './file-groups.tsx'

export function DeliverablesPanel({
  project,
  files,
  deliverables: details = [],
}: {
  project: {
    id: number
    status: string
    deliverablesUntil: string | null
    /** On a site waiting for its next survey. */
    deliverablesUntilNextSurvey?: boolean
  }
  files: ListedFile[]
  /** Kind, SHA-256 and viewing copy of each deliverable. */
  deliverables?: Deliverable[]
}) {
  useViewProgressRefresh(details)
  if (project.status !== 'completed') return null
  const deliverables = files.filter((f) => f.fileCategory === 'processed_deliverable')
  const detailOf = (id: number) => details.find((d) => d.id === id)
  const removedAt = deliverables.find((f) => f.removedAt)?.removedAt ?? null
  const expired = project.deliverablesUntil
    ? new Date(project.deliverablesUntil).getTime() < Date.now()
    : false
  return (
    <section
      aria-labelledby={`deliverables-${project.id}`}
      className="mt-5 space-y-3 rounded-lg border border-emerald-200 bg-emerald-50/40 p-4"
      data-testid="deliverables-panel"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3
          id={`deliverables-${project.id}`}
          className="text-sm font-semibold uppercase tracking-wide text-ink-500"
        >
          Deliverables
        </h3>
        {removedAt || expired ? null : <MapViewLink projectId={project.id} files={deliverables} />}
        {project.deliverablesUntil ? (
          <span
            className={expired ? 'badge bg-ink-100 text-ink-600' : 'badge bg-emerald-100 text-emerald-800'}
          >
            {removedAt
              ? `Deleted ${formatDate(removedAt)}`
              : expired
                ? 'Expired'
                : project.deliverablesUntilNextSurvey
                  ? 'Kept until a month after the next survey of this site'
                  : `Available until ${formatDate(project.deliverablesUntil)}`}
          </span>
        ) : null}
      </div>
      {removedAt ? (
        <>
          <p className="text-sm text-ink-600" data-testid="deliverables-removed">
            These files were deleted on {formatDate(removedAt)}, after the download period ended. Survey
            imagery can show people and homes, so we do not keep it longer than needed.
          </p>
          <ul className="divide-y divide-emerald-100">
            {deliverables.map((f) => (
              <li key={f.id} className="flex items-center justify-between gap-3 py-2 text-sm text-ink-500">
                <span className="min-w-0 truncate">{f.originalName}</span>
                <span className="shrink-0 text-xs">{formatFileSize(f.fileSize)} · deleted</span>
              </li>
            ))}
          </ul>
        </>
      ) : expired ? (
        <p className="text-sm text-ink-600">
          The download period has ended. Please contact us if you need a copy.
        </p>
      ) : deliverables.length ? (
        <ul className="divide-y divide-emerald-100">
          {deliverables.map((f) => (
            <li key={f.id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span className="min-w-0">
                <span className="block truncate font-medium text-ink-900">{f.originalName}</span>
                {detailOf(f.id) ? (
                  <DeliverableFacts deliverable={detailOf(f.id)!} className="mt-1" />
                ) : (
                  <span className="text-xs text-ink-500">{formatFileSize(f.fileSize)}</span>
                )}
              </span>
              <a className="btn-secondary btn-sm shrink-0" href={downloadHref(f)} download={f.originalName}>
                Download
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-ink-600">Your processed files will appear here.</p>
      )}
    </section>
  )
}
