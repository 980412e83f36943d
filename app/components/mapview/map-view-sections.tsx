/**
 * The parts of the Map view the server renders (they work without JavaScript): each
 * deliverable with its preview and footprint, its metadata and download, and the volume
 * form that takes typed corners.
 */
import type { SerializeFrom } from '@remix-run/node'
import { accuracyPdfUrl } from '#app/components/deliverables/checkpoint-report.tsx'
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { CardSection } from '#app/components/ui/section-header.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import {
  accuracyText,
  checkpointText,
  DELIVERABLE_KIND_LABELS,
  hasAccuracyStatement,
  type Deliverable,
} from '#app/domain/deliverables/deliverable.ts'
import type { VolumeFormResult } from '#app/domain/deliverables/map-view.server.ts'
import { formatFileSize, formatHectares, formatNumber, formatPercent } from '#app/lib/format/numbers.ts'

import { VolumeTable } from './map-panels.tsx'
import { CoordinatesField, ModelSelect, ToolForm } from './terrain-form-parts.tsx'

type ListedDeliverable = SerializeFrom<Deliverable>

/** The footprint drawn over the preview (the preview spans the raster's WGS84 bounds). */
export function PreviewWithFootprint({ d }: { d: ListedDeliverable }) {
  if (!d.view?.previewUrl || !d.raster) return null
  const [west, south, east, north] = d.raster.boundsWgs84
  const points = d.raster.footprintWgs84.map(([lng, lat]) => `${lng - west},${north - lat}`).join(' ')
  return (
    <figure
      className="relative overflow-hidden rounded-lg border border-ink-100 bg-ink-100"
      data-testid="deliverable-preview"
    >
      <img
        src={d.view.previewUrl}
        alt={`Preview of ${d.fileName}`}
        className="block h-auto w-full"
        loading="lazy"
      />
      <svg
        className="absolute inset-0 h-full w-full"
        viewBox={`0 0 ${east - west} ${north - south}`}
        preserveAspectRatio="none"
        aria-hidden="true"
      >
        <polygon
          points={points}
          fill="none"
          stroke="#f59e0b"
          strokeWidth="3"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
    </figure>
  )
}

export function rasterRows(d: ListedDeliverable): Array<[string, string]> {
  const r = d.raster
  if (!r) return []
  return [
    ['Coordinate system', r.epsg ? `EPSG:${r.epsg}` : 'Unknown'],
    ['Size', `${formatNumber(r.widthPx)} × ${formatNumber(r.heightPx)} px`],
    ['Bands', `${r.bandCount} (${r.dataType})`],
    [
      'Ground resolution',
      r.gsdCm === null ? 'Unknown' : `${formatNumber(r.gsdCm, 1, { minDecimals: 0 })} cm/px`,
    ],
    ['Footprint', formatHectares(r.footprintHa * 10_000)],
    ['Covers the survey areas', r.overlapPercent === null ? '—' : formatPercent(r.overlapPercent)],
  ]
}

const VIEW_STATUS_WORDS = {
  queued: 'Viewing copy queued',
  processing: 'Preparing the viewing copy',
  ready: 'Ready on the map',
  failed: 'Viewing copy failed',
} as const

export function DeliverableList({ deliverables }: { deliverables: ListedDeliverable[] }) {
  return (
    <CardSection id="deliverables-heading" title="Deliverables">
      {deliverables.length ? (
        <ul className="grid gap-4 md:grid-cols-2">
          {deliverables.map((d) => (
            <li key={d.id} className="rounded-xl border border-ink-100 p-4" data-testid="deliverable">
              <noscript>
                <PreviewWithFootprint d={d} />
              </noscript>
              <h3 className="mt-2 break-words font-semibold text-ink-950">{d.fileName}</h3>
              <dl className="mt-2 divide-y divide-ink-100" data-testid="deliverable-metadata">
                <DetailRow label="Kind">{DELIVERABLE_KIND_LABELS[d.kind]}</DetailRow>
                <DetailRow label="File size">{formatFileSize(d.sizeBytes)}</DetailRow>
                {rasterRows(d).map(([label, value]) => (
                  <DetailRow key={label} label={label}>
                    {value}
                  </DetailRow>
                ))}
                {hasAccuracyStatement(d.kind) ? (
                  <DetailRow label="Accuracy">{accuracyText(d.accuracy)}</DetailRow>
                ) : null}
                {d.checkpoints ? (
                  <DetailRow label="Checked" layout="below">
                    <span data-testid="deliverable-checkpoints">{checkpointText(d.checkpoints)}</span>{' '}
                    <a href={accuracyPdfUrl(d.projectId, d.id)} className="link" download>
                      Accuracy report (PDF)
                    </a>
                  </DetailRow>
                ) : null}
                {d.view ? (
                  <DetailRow label="Map">
                    {d.view.status === 'processing'
                      ? `${VIEW_STATUS_WORDS.processing} (${d.view.progressPercent} %)`
                      : VIEW_STATUS_WORDS[d.view.status]}
                  </DetailRow>
                ) : null}
                {d.sha256 ? (
                  <DetailRow label="SHA-256" layout="below">
                    <code className="break-all text-xs">{d.sha256}</code>
                  </DetailRow>
                ) : null}
              </dl>
              {d.removedAt ? (
                <p className="mt-3 text-sm text-ink-600">Removed after the retention period.</p>
              ) : (
                <a href={d.downloadUrl} className="btn-secondary btn-sm mt-3" download>
                  Download {d.fileName}
                </a>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-ink-600">This project has no deliverables yet.</p>
      )}
    </CardSection>
  )
}

export function VolumeForm({
  elevationModels,
  result,
  error,
  fieldErrors,
  fields,
}: {
  elevationModels: Array<{ id: number; fileName: string }>
  result: SerializeFrom<VolumeFormResult> | null
  error: string | null
  fieldErrors: Record<string, string[]> | null
  fields: Record<string, string> | null
}) {
  const busy = useIsPending({ state: 'submitting', fields: { coordinates: true } })
  const errorOf = (name: string) => fieldErrors?.[name]?.[0]
  // After a measure the form keeps its base; a typed height starts at the edge's mean height.
  const baseChosen =
    fields?.base || (result ? (typeof result.base === 'object' ? 'height' : result.base) : 'edge-mean')
  const typedStart = result
    ? typeof result.base === 'object'
      ? result.base.elevationM
      : result.figures.edgeMeanM
    : null
  const baseHeight =
    fields?.baseHeight ?? (typedStart === null ? undefined : String(Math.round(typedStart * 100) / 100))
  return (
    <CardSection
      id="volume-heading"
      title="Volume from coordinates"
      description="Type the corners of a stockpile, one ‘latitude, longitude’ per line (WGS84 decimal degrees)."
    >
      <ToolForm errorId="volume-error" error={error} className="grid gap-4 md:grid-cols-2">
        <div className="space-y-4">
          <ModelSelect id="volume-elevation-model" models={elevationModels} chosen={fields?.fileId} />
          <CoordinatesField
            label="Corners"
            rows={6}
            placeholder={'-33.9200, 18.4200\n-33.9200, 18.4210\n-33.9210, 18.4210'}
            defaultValue={fields?.coordinates}
            error={errorOf('coordinates')}
            errorId="coordinates-error"
          />
          {/* Keyed by the answer: uncontrolled inputs take the new defaults after a measure with JavaScript too. */}
          <fieldset key={`${baseChosen}:${baseHeight ?? ''}`}>
            <legend className="text-sm font-medium text-ink-900">Base plane</legend>
            <div className="mt-1 space-y-1 text-sm text-ink-800">
              {[
                ['edge-mean', 'Mean height of the edge'],
                ['edge-lowest', 'Lowest point of the edge'],
                ['height', 'This height (blank: the edge’s mean height):'],
              ].map(([value, label]) => (
                <label key={value} className="flex items-center gap-2">
                  <input type="radio" name="base" value={value} defaultChecked={baseChosen === value} />
                  {label}
                </label>
              ))}
              <label className="ml-6 flex items-center gap-2">
                <input
                  name="baseHeight"
                  type="number"
                  step="0.01"
                  className="input w-32"
                  aria-label="Base height in metres"
                  placeholder="Edge mean"
                  defaultValue={baseHeight}
                />
                m
              </label>
              {errorOf('baseHeight') ? <p className="text-red-700">{errorOf('baseHeight')}</p> : null}
            </div>
          </fieldset>
          <StatusButton type="submit" pending={Boolean(busy)} pendingLabel="Measuring…">
            Measure volume
          </StatusButton>
        </div>
        <div aria-live="polite">
          {error ? (
            <p id="volume-error" className="rounded-lg bg-red-50 p-3 text-sm text-red-800" role="alert">
              {error}
            </p>
          ) : null}
          {result ? (
            <div className="rounded-lg bg-ink-50 p-4">
              <VolumeTable figures={result.figures} />
            </div>
          ) : null}
        </div>
      </ToolForm>
    </CardSection>
  )
}
