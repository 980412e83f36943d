/**
 * Pieces the Map view's plain terrain forms share (contours, profile, cut/fill, volume report):
 * the elevation model's select, a button per elevation model, the submit button with the form's error.
 */
import { SelectField } from '#app/components/forms/select-field.tsx'

type Model = { id: number; fileName: string }

/** The form's elevation model (`fileId`), the first one unless `chosen`. */
export function ModelSelect({ id, models, chosen }: { id: string; models: Model[]; chosen?: string }) {
  return (
    <SelectField
      labelProps={{ children: 'Elevation model' }}
      selectProps={{
        id,
        name: 'fileId',
        className: 'mt-1 w-full',
        defaultValue: chosen ?? String(models[0]!.id),
      }}
      options={models.map((m) => ({ value: String(m.id), label: m.fileName }))}
    />
  )
}

/** A submit button per elevation model, each posting to its own URL (a GET form's downloads). */
export function ModelButtons({
  models,
  actionOf,
  label,
}: {
  models: Model[]
  actionOf: (fileId: number) => string
  label: (fileName: string) => string
}) {
  return (
    <div className="flex flex-wrap gap-2 sm:col-span-3">
      {models.map((m) => (
        <button
          key={m.id}
          type="submit"
          formAction={actionOf(m.id)}
          className="btn-secondary btn-sm max-w-full truncate"
        >
          {label(m.fileName)}
        </button>
      ))}
    </div>
  )
}

/** The form's submit button (its busy words while it posts) and its error under it. */
export function SubmitWithError({
  busy,
  label,
  errorId,
  error,
}: {
  busy: boolean
  label: string
  errorId: string
  error: string | null
}) {
  return (
    <div className="md:col-span-2">
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? 'Measuring…' : label}
      </button>
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}
