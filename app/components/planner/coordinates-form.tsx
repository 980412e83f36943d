/**
 * The planner without JavaScript: survey areas as pasted coordinates (one
 * 'lat, lng' per line, a blank line between areas) or a KML / GeoJSON file. Posts to
 * the planner's action, which answers with the same quote as the map.
 */
import { Form } from '@remix-run/react'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'

const COORDINATES_EXAMPLE = `-33.9400, 18.8600
-33.9373, 18.8600
-33.9373, 18.8633
-33.9400, 18.8633

-33.9450, 18.8700
-33.9437, 18.8700
-33.9437, 18.8716`

export function CoordinatesForm({
  projectId,
  defaultText,
  error,
  errorField,
  failure,
}: {
  projectId: number
  defaultText: string
  error: string | null
  errorField: 'coordinates' | 'planFile' | 'areas' | 'screenshot' | null
  /** The product's 'Error' / 'Failed to create project: …' toast, shown here without JavaScript. */
  failure?: { title: string; description: string } | null
}) {
  const pending = useIsPending({
    intent: 'generate-quote',
    state: 'submitting',
    fields: { coordinates: true },
  })
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={`/flight-planner?projectId=${projectId}`}
      className="space-y-4"
      aria-labelledby="coordinates-heading"
    >
      <input type="hidden" name="intent" value="generate-quote" />
      <div>
        <h3 id="coordinates-heading" className="text-sm font-semibold text-ink-900">
          Enter the survey areas
        </h3>
        <p className="mt-1 text-xs text-ink-500">
          Paste the corner points of each area (at least 3), one ‘latitude, longitude’ per line, with a blank
          line between areas — or upload a KML or GeoJSON file exported from Google Earth or a GIS tool.
        </p>
      </div>
      {failure ? (
        <Alert id="planner-input-error" title={failure.title}>
          {failure.description}
        </Alert>
      ) : error ? (
        <Alert id="planner-input-error">{error}</Alert>
      ) : null}
      <div>
        <label htmlFor="coordinates" className="label">
          Coordinates
        </label>
        <textarea
          id="coordinates"
          name="coordinates"
          rows={9}
          defaultValue={defaultText}
          placeholder={COORDINATES_EXAMPLE}
          spellCheck={false}
          data-format="coordinates"
          aria-invalid={errorField === 'coordinates' || errorField === 'areas' || undefined}
          aria-describedby={error ? 'planner-input-error' : undefined}
          className="input font-mono text-xs"
        />
      </div>
      <div>
        <label htmlFor="planFile" className="label">
          …or a KML / GeoJSON file (max 1 MB)
        </label>
        <input
          id="planFile"
          name="planFile"
          type="file"
          accept=".kml,.geojson,.json,application/vnd.google-earth.kml+xml,application/geo+json,application/json"
          aria-invalid={errorField === 'planFile' || undefined}
          className="block w-full text-sm text-ink-700 file:mr-3 file:rounded-lg file:border-0 file:bg-ink-900 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-white hover:file:bg-ink-800"
        />
        <p className="mt-1 text-xs text-ink-500">
          A file, when chosen, is used instead of the pasted coordinates.
        </p>
      </div>
      <StatusButton pending={pending} pendingLabel="Generating Quote..." className="w-full">
        Generate Quote
      </StatusButton>
    </Form>
  )
}
