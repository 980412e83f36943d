/**
 * The Map view's volume report: the saved polygon notes to report on, chosen by checkbox, the
 * base (each note's own, or an earlier survey of the site to compare with), and one button per
 * elevation model. A plain GET form to the PDF (`reloadDocument`), so it works without JavaScript.
 */
import type { SerializeFrom } from '@remix-run/node'
import { Form } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { CardSection } from '#app/components/ui/section-header.tsx'
import type { EarlierSurvey } from '#app/domain/annotations/earlier-surveys.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'

import { ModelButtons } from './terrain-form-parts.tsx'

function volumeReportUrl(projectId: number, fileId: number) {
  return `/api/projects/${projectId}/deliverables/${fileId}/volume-report.pdf`
}

export function VolumeReportForm({
  projectId,
  elevationModels,
  polygons,
  earlierSurveys,
  designs,
}: {
  projectId: number
  elevationModels: { id: number; fileName: string }[]
  polygons: { id: number; title: string }[]
  earlierSurveys: SerializeFrom<EarlierSurvey>[]
  /** The project's design surfaces: the report can add the model's cut/fill to one. */
  designs: { id: number; name: string }[]
}) {
  return (
    <CardSection id="volume-report-heading" title="Volume report" testId="volume-report">
      {polygons.length ? (
        <Form reloadDocument method="get" className="space-y-3">
          <fieldset>
            <legend className="text-sm text-ink-600">
              A PDF for each chosen polygon: cut, fill and net on the elevation model, its base, and a plan
              over the orthomosaic; with the model&apos;s checkpoint report when it has one.
            </legend>
            <ul className="mt-2 space-y-1">
              {polygons.map((p, i) => (
                <li key={p.id}>
                  <label className="flex items-center gap-2 text-sm text-ink-800">
                    <input type="checkbox" name="annotationIds" value={p.id} defaultChecked={i === 0} />
                    <span className="break-words">{p.title}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          {earlierSurveys.length ? (
            <SelectField
              labelProps={{ children: 'Compare with' }}
              hint="An earlier survey of this site: cut, fill and net are the change since then."
              selectProps={{ id: 'volume-report-against', name: 'againstFileId' }}
              placeholder="No earlier survey: each note’s own base"
              options={earlierSurveys.map((s) => ({
                value: String(s.fileId),
                label: `${formatDate(s.surveyedAt)}: ${s.projectName}`,
              }))}
            />
          ) : null}
          {designs.length ? (
            <SelectField
              labelProps={{ children: 'Cut/fill to a design surface' }}
              hint="Adds the elevation model's cut, fill and net to this design: inside each polygon, and over the design's whole outline."
              selectProps={{ id: 'volume-report-design', name: 'designSurfaceId' }}
              placeholder="No design surface"
              options={designs.map((d) => ({ value: String(d.id), label: d.name }))}
            />
          ) : null}
          <ModelButtons
            models={elevationModels.map((m) => ({ ...m, action: volumeReportUrl(projectId, m.id) }))}
            label={(fileName) => `Volume report on ${fileName} (PDF)`}
          />
        </Form>
      ) : (
        <p className="text-sm text-ink-600">Save a polygon note on the map to make a volume report.</p>
      )}
    </CardSection>
  )
}
