/**
 * The admin's checkpoints for one elevation model: the CRS, and the CSV pasted or uploaded as a
 * file. A multipart post (`intent=deliverable-checkpoints`, `fileId`) to the page's action at
 * `?form=checkpoints` (a body is read once: the URL tells the page which reader takes it), so it
 * works without JavaScript. The same check is `POST /api/projects/{id}/deliverables/{fileId}/checkpoints`.
 */
import type { SerializeFrom } from '@remix-run/node'
import { Form } from '@remix-run/react'
import { Field, TextareaField } from '#app/components/forms.tsx'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import type { Deliverable } from '#app/domain/deliverables/deliverable.ts'

import { accuracyPdfUrl, CheckpointReportView } from './checkpoint-report.tsx'

export const DELIVERABLE_CHECKPOINTS_INTENT = 'deliverable-checkpoints'

/** The `?form=` marker that a page's multipart post is this form, not a file upload. */
export const CHECKPOINT_FORM = 'checkpoints'

/** The last post's answer for one deliverable: its message, field errors and what was typed. */
export type CheckpointFormAnswer = {
  fileId: number
  fieldErrors: Partial<Record<'crs' | 'csv' | 'csvFile' | 'form', string[]>>
  fields: { crs: string; csv: string }
}

export function DeliverableCheckpointsForm({
  deliverable,
  action,
  answer,
}: {
  deliverable: SerializeFrom<Deliverable>
  action: string
  answer?: CheckpointFormAnswer
}) {
  const id = deliverable.id
  const pending = useIsPending({ intent: DELIVERABLE_CHECKPOINTS_INTENT, fields: { fileId: String(id) } })
  const report = deliverable.checkpoints
  const epsg = deliverable.raster?.epsg
  const crs = answer?.fields.crs ?? report?.crs ?? (epsg ? `EPSG:${epsg}` : '')
  return (
    <section
      className="space-y-2 rounded-md bg-ink-50 p-2"
      aria-label={`Checkpoints on ${deliverable.fileName}`}
    >
      <h4 className="text-sm font-semibold text-ink-900">Checkpoints</h4>
      {report ? (
        <CheckpointReportView report={report} pdfUrl={accuracyPdfUrl(deliverable.projectId, id)} />
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        action={`${action}?form=${CHECKPOINT_FORM}`}
        preventScrollReset
        className="space-y-2"
        aria-label={`Checkpoints for ${deliverable.fileName}`}
      >
        <input type="hidden" name="intent" value={DELIVERABLE_CHECKPOINTS_INTENT} />
        <input type="hidden" name="fileId" value={id} />
        <FormErrors id={`checkpoints-form-${id}`} errors={answer?.fieldErrors.form} />
        <Field
          labelProps={{ children: 'CRS of the checkpoints' }}
          errors={answer?.fieldErrors.crs}
          hint="As EPSG:code, e.g. EPSG:32734 (UTM 34S) or EPSG:2048 (Lo19)."
          inputProps={{
            id: `checkpoints-crs-${id}`,
            name: 'crs',
            defaultValue: crs,
            required: true,
            autoComplete: 'off',
            className: 'py-1.5 text-sm',
          }}
        />
        <TextareaField
          labelProps={{ children: 'Checkpoints (CSV)' }}
          errors={answer?.fieldErrors.csv}
          hint="A header line id,easting,northing,elevation, then one surveyed checkpoint per line (metres, in the CRS above). For the horizontal RMSE add map_easting,map_northing columns: where each target shows on the orthomosaic, or click the targets on the Map view."
          textareaProps={{
            id: `checkpoints-csv-${id}`,
            name: 'csv',
            rows: 4,
            defaultValue: answer?.fields.csv ?? '',
            placeholder: 'id,easting,northing,elevation',
            spellCheck: false,
            className: 'font-mono text-xs',
          }}
        />
        <Field
          labelProps={{ children: 'Or upload the CSV file' }}
          errors={answer?.fieldErrors.csvFile}
          hint="At most 256 KB; used instead of the pasted text."
          inputProps={{
            id: `checkpoints-file-${id}`,
            name: 'csvFile',
            type: 'file',
            accept: '.csv,.txt',
            className: 'py-1.5 text-sm',
          }}
        />
        <div className="flex justify-end">
          <StatusButton pending={pending} pendingLabel="Checking…" variant="secondary" className="btn-sm">
            Check against the model
          </StatusButton>
        </div>
      </Form>
    </section>
  )
}
