/**
 * One deliverable's facts, the same for the client and the admin: kind,
 * size, SHA-256, a raster's GDAL facts, the processing job that made it, and its viewing copy — progress while it is made,
 * the thumbnail when ready, the reason when it failed. With JavaScript the page refreshes
 * its data while a copy is being made; without, a reload shows the progress.
 */
import { useRevalidator } from '@remix-run/react'
import { cn } from '#app/components/ui/cn.ts'
import {
  accuracyText,
  DELIVERABLE_KIND_LABELS,
  DELIVERABLE_MESSAGES,
  hasAccuracyStatement,
  LOW_OVERLAP_PERCENT,
  type Deliverable,
  type DeliverableProcessing,
} from '#app/domain/deliverables/deliverable.ts'
import { engineText } from '#app/domain/processing/engine.ts'
import { PRESET_LABELS } from '#app/domain/processing/presets.ts'
import { formatElapsed } from '#app/lib/format/dates.ts'
import { formatFileSize, formatNumber, formatPercent, plural } from '#app/lib/format/numbers.ts'
import { useEffect } from 'react'

const STATUS_TEXT = {
  queued: 'Viewing copy queued',
  processing: 'Making the viewing copy',
  ready: 'Viewing copy ready',
  failed: 'Viewing copy failed',
} as const

/** Refreshes the page's data every few seconds while any viewing copy is queued or being made. */
export function useViewProgressRefresh(deliverables: Array<Pick<Deliverable, 'view'> & { held?: boolean }>) {
  const revalidator = useRevalidator()
  const busy = deliverables.some(
    (d) => d.held || d.view?.status === 'queued' || d.view?.status === 'processing',
  )
  useEffect(() => {
    if (!busy) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') revalidator.revalidate()
    }, 3000)
    return () => clearInterval(timer)
  }, [busy, revalidator])
}

/** How the deliverable was made: the preset, the photos and the time; for admins the node, its engine and options. */
function ProcessingFacts({ processing }: { processing: DeliverableProcessing }) {
  const options = processing.options ? Object.entries(processing.options) : []
  return (
    <div data-testid="deliverable-processing">
      <dt className="sr-only">Processing</dt>
      <dd>
        Processed with {PRESET_LABELS[processing.preset]} from {plural(processing.imagesCount, 'photo')}
        {processing.processingMs !== null ? ` in ${formatElapsed(processing.processingMs)}` : ''}
        {processing.nodeLabel ? ` on ${processing.nodeLabel}` : ''}
        {processing.engineVersion ? ` (${engineText(processing.engineVersion)})` : ''}
        {processing.simulated ? (
          <span className="badge ml-2 bg-amber-100 text-amber-900">SIMULATED PROCESSING</span>
        ) : null}
        {options.length ? (
          <details className="mt-0.5">
            <summary className="cursor-pointer text-ink-500">Options</summary>
            <code className="block break-all font-mono text-[11px] text-ink-500">
              {options.map(([name, value]) => `${name}=${String(value)}`).join(' ')}
            </code>
          </details>
        ) : null}
      </dd>
    </div>
  )
}

export function DeliverableFacts({
  deliverable,
  className,
}: {
  deliverable: Deliverable
  className?: string
}) {
  const { raster, view } = deliverable
  const lowOverlap =
    raster?.overlapPercent !== null &&
    raster?.overlapPercent !== undefined &&
    raster.overlapPercent < LOW_OVERLAP_PERCENT
  return (
    <div className={cn('flex gap-3 text-xs text-ink-600', className)} data-testid="deliverable-facts">
      {view?.thumbnailUrl ? (
        <img
          src={view.thumbnailUrl}
          alt={`Preview of ${deliverable.fileName}`}
          className="h-16 w-16 shrink-0 rounded border border-ink-100 bg-ink-50 object-cover"
          loading="lazy"
        />
      ) : null}
      <dl className="min-w-0 space-y-0.5">
        <div className="flex flex-wrap gap-x-3 gap-y-0.5">
          <div>
            <dt className="sr-only">Kind</dt>
            <dd>
              <span className="badge bg-sky-100 text-sky-800" data-testid="deliverable-kind">
                {DELIVERABLE_KIND_LABELS[deliverable.kind]}
              </span>
            </dd>
          </div>
          <div>
            <dt className="sr-only">Size</dt>
            <dd>{formatFileSize(deliverable.sizeBytes)}</dd>
          </div>
          {raster ? (
            <div>
              <dt className="sr-only">Raster</dt>
              <dd>
                {formatNumber(raster.widthPx)} × {formatNumber(raster.heightPx)} px
                {raster.gsdCm !== null ? ` · ${formatNumber(raster.gsdCm, 1)} cm/px` : ''}
                {raster.epsg !== null ? ` · EPSG:${raster.epsg}` : ''} · {formatNumber(raster.footprintHa, 2)}{' '}
                ha
              </dd>
            </div>
          ) : null}
        </div>
        {deliverable.sha256 ? (
          <div className="flex min-w-0 gap-1">
            <dt>SHA-256</dt>
            <dd className="min-w-0 break-all font-mono text-[11px] text-ink-500">{deliverable.sha256}</dd>
          </div>
        ) : null}
        {hasAccuracyStatement(deliverable.kind) ? <AccuracyFact deliverable={deliverable} /> : null}
        {deliverable.processing ? <ProcessingFacts processing={deliverable.processing} /> : null}
        {lowOverlap ? (
          <div>
            <dt className="sr-only">Coverage of the survey areas</dt>
            <dd className="font-medium text-amber-800" data-testid="deliverable-overlap-warning">
              {DELIVERABLE_MESSAGES.lowOverlap(deliverable.kind, formatPercent(raster!.overlapPercent))}
            </dd>
          </div>
        ) : null}
        {view ? (
          <div>
            <dt className="sr-only">Viewing copy</dt>
            {/* Held, a ready copy is not the client's yet: not "ready" to a reader waiting for it. */}
            <dd
              data-testid="deliverable-view-status"
              data-status={deliverable.held && view.status === 'ready' ? 'held' : view.status}
            >
              {view.status === 'processing' || view.status === 'queued' ? (
                <span className="flex items-center gap-2">
                  <span>
                    {STATUS_TEXT[view.status]}
                    {view.status === 'processing' ? ` · ${formatPercent(view.progressPercent)}` : ''}
                  </span>
                  <progress
                    className="h-1.5 w-24 overflow-hidden rounded accent-sky-600"
                    max={100}
                    value={view.progressPercent}
                    aria-label={`${STATUS_TEXT[view.status]} for ${deliverable.fileName}`}
                  />
                </span>
              ) : view.status === 'failed' ? (
                <span className="text-red-700">
                  {/* A client reads the plain sentence alone; an admin the status and GDAL's reason. */}
                  {view.error === DELIVERABLE_MESSAGES.viewFailed
                    ? view.error
                    : `${STATUS_TEXT.failed}: ${view.error ?? ''}`}
                </span>
              ) : deliverable.held ? (
                <span className="text-ink-600">{STATUS_TEXT.ready}</span>
              ) : (
                <span className="text-emerald-700">{STATUS_TEXT.ready}</span>
              )}
            </dd>
          </div>
        ) : null}
        {deliverable.held ? (
          <div>
            <dt className="sr-only">Publication</dt>
            <dd className="font-medium text-amber-800" data-testid="deliverable-held">
              {DELIVERABLE_MESSAGES.held}
            </dd>
          </div>
        ) : null}
      </dl>
    </div>
  )
}

/** The accuracy statement as a line of facts ("accuracy not stated" without one); where it came from, for ODM's. */
function AccuracyFact({ deliverable }: { deliverable: Pick<Deliverable, 'accuracy'> }) {
  const { accuracy } = deliverable
  return (
    <div>
      <dt className="sr-only">Accuracy</dt>
      <dd data-testid="deliverable-accuracy" className={accuracy ? 'text-ink-700' : 'text-ink-500'}>
        {accuracy ? `Accuracy: ${accuracyText(accuracy)}` : `Accuracy: ${accuracyText(null)}`}
        {accuracy?.source === 'odm' ? ' (from the processing report)' : ''}
      </dd>
    </div>
  )
}
