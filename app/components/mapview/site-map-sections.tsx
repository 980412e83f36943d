/**
 * The parts of the site Map view the server renders (they work without JavaScript):
 * the Before/After pickers (a GET form), each survey's date, previews (shown when there is no
 * map) and metadata, the change over the survey areas (a POST form) and the site report link.
 */
import type { SerializeFrom } from '@remix-run/node'
import { Form } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { CardSection } from '#app/components/ui/section-header.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { DELIVERABLE_KIND_LABELS } from '#app/domain/deliverables/deliverable.ts'
import type { ChangeFigures } from '#app/domain/deliverables/measure-schemas.ts'
import type { SiteSurvey } from '#app/domain/sites/site-map.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatPercent, formatSquareMetres } from '#app/lib/format/numbers.ts'

import { cubicMetres, Figure } from './map-panels.tsx'
import { PreviewWithFootprint, rasterRows } from './map-view-sections.tsx'

/** A polygon drawn on the map with its figures (WGS84 [lng, lat] ring, closed). */
export type DrawnChange = { ring: [number, number][]; figures: ChangeFigures }

/** Where the site report for a pair is downloaded. */
export function siteReportUrl(siteId: number, beforeId: number, afterId: number) {
  return `/sites/${siteId}/report.pdf?before=${beforeId}&after=${afterId}`
}

/**
 * Cut, fill and net change (After − Before) and the area: the map's result and the form's.
 * No minimum change applies to them (the map's is for drawing), and the table says so.
 */
export function ChangeTable({ figures }: { figures: ChangeFigures }) {
  return (
    <div>
      <dl data-testid="change-figures">
        <Figure label="Cut (lower now)" value={cubicMetres(figures.cutM3)} testId="change-cut" />
        <Figure label="Fill (higher now)" value={cubicMetres(figures.fillM3)} testId="change-fill" />
        <Figure label="Net change" value={cubicMetres(figures.netM3)} testId="change-net" />
        <Figure label="Area" value={formatSquareMetres(figures.areaM2)} testId="change-area" />
        <Figure label="With both elevation models" value={formatPercent(figures.coveredPercent, 1)} />
      </dl>
      <p className="mt-1 text-xs text-ink-600">Every compared cell counts, however little it moved.</p>
    </div>
  )
}

export function SurveyPairForm({
  surveys,
  beforeId,
  afterId,
}: {
  surveys: Array<{ projectId: number; label: string }>
  beforeId: number | null
  afterId: number | null
}) {
  return (
    <Form method="get" className="card flex flex-wrap items-end gap-3 p-4" aria-label="Choose two surveys">
      {(
        [
          ['before', 'Before', beforeId],
          ['after', 'After', afterId],
        ] as const
      ).map(([name, label, value]) => (
        <SelectField
          key={name}
          className="min-w-[12rem] flex-1"
          labelProps={{ children: label }}
          selectProps={{
            id: `site-map-${name}`,
            name,
            defaultValue: value === null ? undefined : String(value),
          }}
          options={surveys.map((s) => ({ value: String(s.projectId), label: s.label }))}
        />
      ))}
      <button type="submit" className="btn-primary">
        Compare
      </button>
    </Form>
  )
}

type ListedSurvey = SerializeFrom<SiteSurvey>

/** 'Orthomosaic — 14 Nov 2026': two surveys' files side by side are told apart by their date. */
function datedName(name: string, flownAt: string) {
  return `${name} \u2014 ${formatDate(flownAt)}`
}

/** One survey's date, its previews (without JavaScript, where there is no map) and metadata. */
function SurveyColumn({ role, survey }: { role: 'Before' | 'After'; survey: ListedSurvey }) {
  return (
    <section
      aria-labelledby={`survey-${role}`}
      className="rounded-xl border border-ink-100 p-4"
      data-testid={`survey-${role.toLowerCase()}`}
    >
      <h3 id={`survey-${role}`} className="font-semibold text-ink-950">
        {role}: {formatDate(survey.flownAt)}
      </h3>
      <p className="text-sm text-ink-600">{survey.name}</p>
      <ul className="mt-3 space-y-4">
        {survey.rasters.map((d) => (
          <li key={d.id}>
            <noscript>
              <PreviewWithFootprint d={d} />
            </noscript>
            <h4 className="mt-2 break-words text-sm font-semibold text-ink-900">
              {datedName(DELIVERABLE_KIND_LABELS[d.kind], survey.flownAt)}
            </h4>
            <p className="break-words text-xs text-ink-600">{d.fileName}</p>
            <dl className="mt-1 divide-y divide-ink-100" data-testid="survey-metadata">
              <DetailRow label="Kind">{DELIVERABLE_KIND_LABELS[d.kind]}</DetailRow>
              {rasterRows(d).map(([label, value]) => (
                <DetailRow key={label} label={label}>
                  {value}
                </DetailRow>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function SurveyColumns({ before, after }: { before: ListedSurvey; after: ListedSurvey }) {
  return (
    <CardSection id="surveys-heading" title="The two surveys">
      <div className="grid gap-4 md:grid-cols-2">
        <SurveyColumn role="Before" survey={before} />
        <SurveyColumn role="After" survey={after} />
      </div>
    </CardSection>
  )
}

export type AreaChange = { areaNumber: number; figures: ChangeFigures | null; error: string | null }

/** Without drawing: the change over each of the After survey's areas, worked out on the server. */
export function AreaChangeForm({
  beforeId,
  afterId,
  results,
  error,
}: {
  beforeId: number
  afterId: number
  results: AreaChange[] | null
  error: string | null
}) {
  const busy = useIsPending({ intent: 'area-change', state: 'submitting' })
  return (
    <CardSection
      id="area-change-heading"
      title="Change over the survey areas"
      description="Cut, fill and net change in volume between the two elevation models (After − Before) over each survey area."
    >
      <Form method="post">
        <input type="hidden" name="intent" value="area-change" />
        <input type="hidden" name="before" value={beforeId} />
        <input type="hidden" name="after" value={afterId} />
        <StatusButton type="submit" pending={Boolean(busy)} pendingLabel="Working it out…">
          Work out the change
        </StatusButton>
      </Form>
      <div aria-live="polite">
        {error ? (
          <p className="rounded-lg bg-red-50 p-3 text-sm text-red-800" role="alert">
            {error}
          </p>
        ) : null}
        {results ? (
          <ul className="grid gap-4 md:grid-cols-2" data-testid="area-changes">
            {results.map((r) => (
              <li key={r.areaNumber} className="rounded-lg bg-ink-50 p-4">
                <h3 className="mb-1 text-sm font-semibold text-ink-900">Area {r.areaNumber}</h3>
                {r.figures ? (
                  <ChangeTable figures={r.figures} />
                ) : (
                  <p className="text-sm text-red-700">{r.error}</p>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </CardSection>
  )
}

/** The report with the polygons drawn on the map (a download: the document is reloaded). */
export function SiteReportForm({
  siteId,
  beforeId,
  afterId,
  drawn,
}: {
  siteId: number
  beforeId: number
  afterId: number
  drawn: DrawnChange[]
}) {
  const polygons = drawn.map((d) => ({ type: 'Polygon', coordinates: [d.ring] }))
  return (
    <Form method="post" reloadDocument action={siteReportUrl(siteId, beforeId, afterId)}>
      <input type="hidden" name="before" value={beforeId} />
      <input type="hidden" name="after" value={afterId} />
      <input type="hidden" name="polygons" value={JSON.stringify(polygons)} />
      <button
        type="submit"
        className="btn-secondary btn-sm w-full justify-center whitespace-normal text-center"
      >
        Download site report with {drawn.length === 1 ? 'this area' : `these ${drawn.length} areas`} (PDF)
      </button>
    </Form>
  )
}
