/**
 * Design surfaces and cut/fill on the Map view, all plain forms (they work without JavaScript):
 * the project's design surfaces, an admin's upload (LandXML TIN, GeoTIFF, DXF of 3D faces) and
 * deletion (asked first, in the one confirmation dialog), and cut/fill of an elevation model
 * against a design, over the design's outline or typed corners.
 */
import { Link } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'
import { FigureList } from '#app/components/ui/figure-list.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatCubicMetres, formatNumber, formatSquareMetres } from '#app/lib/format/numbers.ts'

import { CoordinatesField, ModelSelect, SubmitWithError, ToolForm } from './terrain-form-parts.tsx'

type Model = { id: number; fileName: string }
export type DesignListItem = {
  id: number
  name: string
  kind: 'landxml' | 'geotiff' | 'dxf'
  originalName: string
  crs: string
  minElevationM: number | null
  maxElevationM: number | null
  createdAt: string
}
export type CutFillView = {
  fileId: number
  designSurfaceId: number
  figures: { cutM3: number; fillM3: number; netM3: number; areaM2: number }
}

const KIND_LABELS: Record<DesignListItem['kind'], string> = {
  landxml: 'LandXML TIN',
  geotiff: 'GeoTIFF',
  dxf: 'DXF 3D faces',
}

const heights = (d: DesignListItem) =>
  d.minElevationM === null || d.maxElevationM === null
    ? '—'
    : `${formatNumber(d.minElevationM, 2)} – ${formatNumber(d.maxElevationM, 2)} m`

function DesignList({ designs, isAdmin }: { designs: DesignListItem[]; isAdmin: boolean }) {
  if (!designs.length) return <p className="mt-3 text-sm text-ink-600">No design surfaces yet.</p>
  return (
    <ul className="mt-3 divide-y divide-ink-100 text-sm" data-testid="design-surface-list">
      {designs.map((d) => (
        <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
          <div className="min-w-0">
            <p className="truncate font-medium text-ink-950">{d.name}</p>
            <p className="text-ink-600">
              {`${KIND_LABELS[d.kind]} · ${d.crs} · ${heights(d)} · ${formatDate(d.createdAt, { short: true })}`}
            </p>
          </div>
          {isAdmin ? (
            <Link
              to={`?deleteDesign=${d.id}#design-surfaces`}
              preventScrollReset
              className="btn-danger-quiet btn-sm"
              aria-label={`Delete the design surface ${d.name}`}
            >
              Delete
            </Link>
          ) : null}
        </li>
      ))}
    </ul>
  )
}

function DesignUploadForm({ error }: { error: string | null }) {
  const busy = useIsPending({ state: 'submitting', fields: { intent: 'design-upload' } })
  return (
    <ToolForm
      intent="design-upload"
      errorId="design-upload-error"
      error={error}
      encType="multipart/form-data"
      className="mt-4 grid gap-3 rounded border border-ink-100 p-3 sm:grid-cols-3"
    >
      <label className="block text-sm font-medium text-ink-900">
        Name
        <input name="name" required maxLength={120} className="input mt-1 w-full" />
      </label>
      <label className="block text-sm font-medium text-ink-900">
        CRS (when the file does not say)
        <input
          name="crs"
          placeholder="EPSG:32734"
          pattern="[Ee][Pp][Ss][Gg]:[0-9]{4,6}"
          className="input mt-1 w-full"
        />
      </label>
      <label className="block text-sm font-medium text-ink-900">
        File (LandXML, GeoTIFF or DXF)
        <input
          name="file"
          type="file"
          required
          accept=".xml,.tif,.tiff,.dxf"
          className="mt-1 block w-full text-sm"
        />
      </label>
      <div className="sm:col-span-3">
        <button type="submit" className="btn-secondary btn-sm" disabled={busy}>
          {busy ? 'Uploading…' : 'Add the design surface'}
        </button>
        {error ? (
          <p id="design-upload-error" role="alert" className="mt-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </ToolForm>
  )
}

/** The cut/fill colour map of a result (PNG: cut red, fill blue, clear within ±5 cm). */
export function cutFillMapUrl(projectId: number, result: Pick<CutFillView, 'fileId' | 'designSurfaceId'>) {
  return `/api/projects/${projectId}/deliverables/${result.fileId}/cut-fill.png?designSurfaceId=${result.designSurfaceId}`
}

function CutFillFigures({ figures, mapUrl }: { figures: CutFillView['figures']; mapUrl: string }) {
  const rows = [
    ['Cut', formatCubicMetres(figures.cutM3), 'cut-fill-cut'],
    ['Fill', formatCubicMetres(figures.fillM3), 'cut-fill-fill'],
    ['Net (cut − fill)', formatCubicMetres(figures.netM3), 'cut-fill-net'],
    ['Area compared', formatSquareMetres(figures.areaM2), 'cut-fill-area'],
  ] as const
  return (
    <div className="mt-4" data-testid="cut-fill-result">
      <FigureList rows={rows} layout="grid" />
      <p className="mt-2 text-sm text-ink-600">
        On the map: cut red, fill blue, clear within ±5 cm.{' '}
        <a href={mapUrl} className="underline" download="cut-fill.png">
          The cut/fill map (PNG)
        </a>
      </p>
    </div>
  )
}

export function DesignSection({
  projectId,
  designs,
  models,
  isAdmin,
  deleteDesignId,
  designError,
  result,
  error,
  fields,
}: {
  projectId: number
  designs: DesignListItem[]
  models: Model[]
  isAdmin: boolean
  deleteDesignId: number | null
  designError: string | null
  result: CutFillView | null
  error: string | null
  fields: Record<string, string> | null
}) {
  const busy = useIsPending({ state: 'submitting', fields: { intent: 'cut-fill' } })
  const deleting = isAdmin ? designs.find((d) => d.id === deleteDesignId) : undefined
  return (
    <section
      id="design-surfaces"
      aria-labelledby="design-surfaces-heading"
      className="card p-4 sm:p-6"
      data-testid="design-surfaces"
    >
      <h2 id="design-surfaces-heading" className="text-lg font-semibold text-ink-950">
        Design surfaces and cut/fill
      </h2>
      <p className="mt-1 text-sm text-ink-600">
        The ground against a design: cut where the survey is above the design, fill where it is below.
      </p>
      <DesignList designs={designs} isAdmin={isAdmin} />
      {isAdmin ? <DesignUploadForm error={designError} /> : null}
      {designs.length && models.length ? (
        <ToolForm
          intent="cut-fill"
          errorId="cut-fill-error"
          error={error}
          preventScrollReset
          className="mt-4 grid gap-4 md:grid-cols-2"
        >
          <div className="space-y-3">
            <ModelSelect
              id="cut-fill-model"
              models={models}
              chosen={fields?.fileId ?? (result ? String(result.fileId) : undefined)}
            />
            <SelectField
              labelProps={{ children: 'Design surface' }}
              selectProps={{
                id: 'cut-fill-design',
                name: 'designSurfaceId',
                defaultValue: fields?.designSurfaceId ?? String(result?.designSurfaceId ?? designs[0]!.id),
              }}
              options={designs.map((d) => ({ value: String(d.id), label: d.name }))}
            />
          </div>
          <CoordinatesField
            label="Area (optional: the whole design when empty)"
            optional
            rows={4}
            placeholder={'-33.9200, 18.4200\n-33.9200, 18.4230\n-33.9220, 18.4230'}
            defaultValue={fields?.coordinates}
          />
          <SubmitWithError busy={busy} label="Measure cut and fill" errorId="cut-fill-error" error={error} />
        </ToolForm>
      ) : null}
      {result ? <CutFillFigures figures={result.figures} mapUrl={cutFillMapUrl(projectId, result)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this design surface?"
          closeTo={`/projects/${projectId}/map#design-surfaces`}
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          intent="design-delete"
          fields={{ designId: deleting.id }}
          testId="delete-design-dialog"
        >
          <p>
            ‘{deleting.name}’ ({deleting.originalName}) and its design raster are deleted for everyone on this
            project.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  )
}
