/**
 * The engineer's terrain tools on the Map view, both plain forms (they work without
 * JavaScript): contour lines to download in a GIS or CAD format, and a profile along typed
 * points with its chart (grades over 10 % shaded: a haul-road rule of thumb), table and CSV.
 */
import { Form } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { CardSection } from '#app/components/ui/section-header.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import type { ProfileFigures } from '#app/domain/deliverables/profile.server.ts'

import { STEEP_GRADE_PERCENT } from './profile-chart.ts'
import { ProfileResult } from './profile-result.tsx'
import {
  CoordinatesField,
  ModelButtons,
  ModelSelect,
  SubmitWithError,
  ToolForm,
  type ModelTarget,
} from './terrain-form-parts.tsx'

type Model = { id: number; fileName: string }
export type ProfileView = { fileId: number; figures: ProfileFigures }

export function contoursUrl(projectId: number, fileId: number) {
  return `/api/projects/${projectId}/deliverables/${fileId}/contours`
}

/** The contour form: a GET per model, to its URL (the /api route, or a download link's). */
export function ContourDownloadForm({ models }: { models: ModelTarget[] }) {
  return (
    <CardSection
      id="contours-heading"
      title="Contour lines"
      description="Lines of equal height for CAD or GIS, every 5th an index line. Made from the elevation model itself."
      testId="contours"
    >
      <Form reloadDocument method="get" className="grid gap-3 sm:grid-cols-3">
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
          selectProps={{ id: 'contour-format', name: 'format', defaultValue: 'dxf' }}
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
          selectProps={{ id: 'contour-crs', name: 'crs', defaultValue: 'project' }}
          options={[
            { value: 'project', label: "The survey's own (UTM or Lo)" },
            { value: 'wgs84', label: 'WGS84 (longitude, latitude)' },
          ]}
        />
        <ModelButtons models={models} label={(fileName) => `Contours of ${fileName}`} />
      </Form>
    </CardSection>
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
    <CardSection
      id="profile-heading"
      title="Profile and grade"
      description={
        <>
          Type points along a road or a cut, one ‘latitude, longitude’ per line: the ground along them, and
          its steepest grade (over {STEEP_GRADE_PERCENT} % shaded).
        </>
      }
      testId="profile"
    >
      <ToolForm intent="profile" errorId="profile-error" error={error} className="grid gap-4 md:grid-cols-2">
        <div className="space-y-3">
          <ModelSelect id="profile-elevation-model" models={models} chosen={fields?.fileId} />
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
        <CoordinatesField
          label="Points"
          rows={5}
          placeholder={'-33.9200, 18.4200\n-33.9210, 18.4230'}
          defaultValue={fields?.coordinates}
        />
        <SubmitWithError busy={busy} label="Show the profile" errorId="profile-error" error={error} />
      </ToolForm>
      {result ? <ProfileResult figures={result.figures} /> : null}
    </CardSection>
  )
}
