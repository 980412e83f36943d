/**
 * The engineer's terrain tools on the Map view, both plain forms (they work without
 * JavaScript): contour lines to download in a GIS or CAD format, and a profile along typed
 * points with its chart (grades over 10 % shaded: a haul-road rule of thumb), table and CSV.
 */
import { Form } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { useId } from 'react'

type Model = { id: number; fileName: string }
type ProfilePoint = { distanceM: number; elevationM: number | null }
export type ProfileView = {
  fileId: number
  /** The points as CSV, written on the server by the one CSV helper. */
  csv: string
  figures: {
    lengthM: number
    points: ProfilePoint[]
    maxGradePercent: number | null
    minElevationM: number | null
    maxElevationM: number | null
  }
}

/** A haul road steeper than this is shaded on the chart. */
const STEEP_GRADE_PERCENT = 10
const CHART = { width: 640, height: 220, pad: 36 }

const metres = (value: number | null) => (value === null ? '—' : `${value.toFixed(2)} m`)

function contoursUrl(projectId: number, fileId: number) {
  return `/api/projects/${projectId}/deliverables/${fileId}/contours`
}

export function ContourDownloadForm({ projectId, models }: { projectId: number; models: Model[] }) {
  return (
    <section aria-labelledby="contours-heading" className="card p-4 sm:p-6" data-testid="contours">
      <h2 id="contours-heading" className="text-lg font-semibold text-ink-950">
        Contour lines
      </h2>
      <p className="mt-1 text-sm text-ink-600">
        Lines of equal height for CAD or GIS, every 5th an index line. Made from the elevation model itself.
      </p>
      <Form reloadDocument method="get" className="mt-3 grid gap-3 sm:grid-cols-3">
        <label className="block text-sm font-medium text-ink-900">
          Interval (m)
          <input
            name="interval"
            type="number"
            min="0.01"
            max="1000"
            step="any"
            defaultValue="1"
            required
            className="input mt-1 w-full"
          />
        </label>
        <SelectField
          labelProps={{ children: 'Format' }}
          selectProps={{
            id: 'contour-format',
            name: 'format',
            defaultValue: 'dxf',
            className: 'mt-1 w-full',
          }}
          options={[
            { value: 'dxf', label: 'DXF (CAD)' },
            { value: 'shp', label: 'Shapefile (zip)' },
            { value: 'gpkg', label: 'GeoPackage' },
            { value: 'geojson', label: 'GeoJSON' },
            { value: 'kml', label: 'KML (Google Earth)' },
          ]}
        />
        <SelectField
          labelProps={{ children: 'Coordinates' }}
          selectProps={{ id: 'contour-crs', name: 'crs', defaultValue: 'project', className: 'mt-1 w-full' }}
          options={[
            { value: 'project', label: "The survey's own (UTM or Lo)" },
            { value: 'wgs84', label: 'WGS84 (longitude, latitude)' },
          ]}
        />
        <div className="flex flex-wrap gap-2 sm:col-span-3">
          {models.map((m) => (
            <button
              key={m.id}
              type="submit"
              formAction={contoursUrl(projectId, m.id)}
              className="btn-secondary btn-sm max-w-full truncate"
            >
              Contours of {m.fileName}
            </button>
          ))}
        </div>
      </Form>
    </section>
  )
}

/** The profile as an SVG: the ground line (gaps where the model has no data), steep legs shaded. */
function ProfileChart({ figures }: { figures: ProfileView['figures'] }) {
  const titleId = useId()
  const { points, lengthM } = figures
  const low = figures.minElevationM ?? 0
  const high = figures.maxElevationM ?? 1
  const span = high - low || 1
  const x = (d: number) => CHART.pad + (d / (lengthM || 1)) * (CHART.width - 2 * CHART.pad)
  const y = (z: number) => CHART.height - CHART.pad - ((z - low) / span) * (CHART.height - 2 * CHART.pad)
  const runs: string[] = []
  const steep: string[] = []
  let run: string[] = []
  points.forEach((p, i) => {
    if (p.elevationM === null) {
      if (run.length > 1) runs.push(run.join(' '))
      run = []
      return
    }
    run.push(`${x(p.distanceM).toFixed(1)},${y(p.elevationM).toFixed(1)}`)
    const before = points[i - 1]
    if (before?.elevationM == null) return
    const grade = (Math.abs(p.elevationM - before.elevationM) / (p.distanceM - before.distanceM || 1)) * 100
    if (grade > STEEP_GRADE_PERCENT) {
      const base = CHART.height - CHART.pad
      steep.push(
        `${x(before.distanceM)},${base} ${x(before.distanceM)},${y(before.elevationM)} ${x(p.distanceM)},${y(p.elevationM)} ${x(p.distanceM)},${base}`,
      )
    }
  })
  if (run.length > 1) runs.push(run.join(' '))
  return (
    <svg
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      className="mt-3 w-full rounded border border-ink-100 bg-white"
      role="img"
      aria-labelledby={titleId}
      data-testid="profile-chart"
    >
      <title id={titleId}>
        {`Profile, ${lengthM.toFixed(1)} m long, from ${metres(figures.minElevationM)} to ${metres(figures.maxElevationM)}`}
      </title>
      {steep.map((polygon) => (
        <polygon key={polygon} points={polygon} className="fill-red-200" />
      ))}
      {runs.map((line) => (
        <polyline key={line} points={line} fill="none" className="stroke-ink-800" strokeWidth="2" />
      ))}
      <text x={CHART.pad} y={CHART.height - 10} className="fill-ink-600 text-[12px]">
        0 m
      </text>
      <text
        x={CHART.width - CHART.pad}
        y={CHART.height - 10}
        textAnchor="end"
        className="fill-ink-600 text-[12px]"
      >
        {`${lengthM.toFixed(1)} m`}
      </text>
      <text x={4} y={CHART.pad} className="fill-ink-600 text-[12px]">
        {metres(figures.maxElevationM)}
      </text>
      <text x={4} y={CHART.height - CHART.pad} className="fill-ink-600 text-[12px]">
        {metres(figures.minElevationM)}
      </text>
    </svg>
  )
}

export function ProfileSection({
  models,
  result,
  error,
  fields,
}: {
  models: Model[]
  result: ProfileView | null
  error: string | null
  fields: Record<string, string> | null
}) {
  const busy = useIsPending({ state: 'submitting', fields: { intent: 'profile' } })
  return (
    <section aria-labelledby="profile-heading" className="card p-4 sm:p-6" data-testid="profile">
      <h2 id="profile-heading" className="text-lg font-semibold text-ink-950">
        Profile and grade
      </h2>
      <p className="mt-1 text-sm text-ink-600">
        Type points along a road or a cut, one ‘latitude, longitude’ per line: the ground along them, and its
        steepest grade (over {STEEP_GRADE_PERCENT} % shaded).
      </p>
      <Form
        method="post"
        className="mt-4 grid gap-4 md:grid-cols-2"
        aria-describedby={error ? 'profile-error' : undefined}
      >
        <input type="hidden" name="intent" value="profile" />
        <div className="space-y-3">
          <SelectField
            labelProps={{ children: 'Elevation model' }}
            selectProps={{
              id: 'profile-elevation-model',
              name: 'fileId',
              className: 'mt-1 w-full',
              defaultValue: fields?.fileId ?? String(models[0]!.id),
            }}
            options={models.map((m) => ({ value: String(m.id), label: m.fileName }))}
          />
          <label className="block text-sm font-medium text-ink-900">
            Samples
            <input
              name="samples"
              type="number"
              min="2"
              max="2000"
              defaultValue={fields?.samples ?? '100'}
              className="input mt-1 w-full"
            />
          </label>
        </div>
        <label className="block text-sm font-medium text-ink-900">
          Points
          <textarea
            name="coordinates"
            rows={5}
            required
            className="input mt-1 w-full font-mono text-sm"
            placeholder={'-33.9200, 18.4200\n-33.9210, 18.4230'}
            defaultValue={fields?.coordinates}
          />
        </label>
        <div className="md:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? 'Measuring…' : 'Show the profile'}
          </button>
          {error ? (
            <p id="profile-error" role="alert" className="mt-2 text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </div>
      </Form>
      {result ? (
        <div className="mt-4" data-testid="profile-result">
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-ink-600">Length</dt>
              <dd className="font-semibold">{result.figures.lengthM.toFixed(2)} m</dd>
            </div>
            <div>
              <dt className="text-ink-600">Lowest</dt>
              <dd className="font-semibold">{metres(result.figures.minElevationM)}</dd>
            </div>
            <div>
              <dt className="text-ink-600">Highest</dt>
              <dd className="font-semibold">{metres(result.figures.maxElevationM)}</dd>
            </div>
            <div>
              <dt className="text-ink-600">Steepest grade</dt>
              <dd className="font-semibold" data-testid="profile-max-grade">
                {result.figures.maxGradePercent === null
                  ? '—'
                  : `${result.figures.maxGradePercent.toFixed(1)} %`}
              </dd>
            </div>
          </dl>
          <ProfileChart figures={result.figures} />
          <a
            href={`data:text/csv;charset=utf-8,${encodeURIComponent(result.csv)}`}
            download="profile.csv"
            className="btn-secondary btn-sm mt-3 inline-block"
          >
            Download the profile (CSV)
          </a>
        </div>
      ) : null}
    </section>
  )
}
