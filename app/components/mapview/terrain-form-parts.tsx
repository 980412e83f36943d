/**
 * Pieces the Map view's plain forms share (contours, profile, cut/fill, volume, volume report,
 * notes): the posting form, the typed coordinates, the elevation model's select, a button per
 * elevation model, the submit button with the form's error.
 */
import { Form, type FormProps } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { cn } from '#app/components/ui/cn.ts'
import type { TextareaHTMLAttributes } from 'react'

type Model = { id: number; fileName: string }

type ToolFormProps = FormProps & { intent?: string; errorId: string; error: string | null }

/** A tool's posting form: its `intent` (when the page tells forms apart), described by its error while it shows one. */
export function ToolForm({ intent, errorId, error, children, ...form }: ToolFormProps) {
  return (
    <Form method="post" {...form} aria-describedby={error ? errorId : undefined}>
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      {children}
    </Form>
  )
}

type TextareaProps = TextareaHTMLAttributes<HTMLTextAreaElement>
type CoordinatesFieldProps = Pick<TextareaProps, 'rows' | 'placeholder' | 'defaultValue'> & {
  label: string
  optional?: boolean
  error?: string
  errorId?: string
  className?: string
}

/** The typed points (`coordinates`, one ‘latitude, longitude’ per line), required unless `optional`, and their error. */
export function CoordinatesField({
  label,
  optional,
  error,
  errorId,
  className,
  ...text
}: CoordinatesFieldProps) {
  return (
    <label className={cn('block text-sm font-medium text-ink-900', className)}>
      {label}
      <textarea
        name="coordinates"
        {...text}
        required={!optional}
        className="input mt-1 w-full font-mono text-sm"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <span id={errorId} className="mt-1 block text-sm font-normal text-red-700">
          {error}
        </span>
      ) : null}
    </label>
  )
}

/** The form's elevation model (`fileId`), the first one unless `chosen`. */
export function ModelSelect({ id, models, chosen }: { id: string; models: Model[]; chosen?: string }) {
  return (
    <SelectField
      labelProps={{ children: 'Elevation model' }}
      selectProps={{
        id,
        name: 'fileId',
        defaultValue: chosen ?? String(models[0]!.id),
      }}
      options={models.map((m) => ({ value: String(m.id), label: m.fileName }))}
    />
  )
}

/** An elevation model a GET form's button sends to: the URL of its download. */
export type ModelTarget = Model & { action: string }

/** A submit button per elevation model, each sending the form to its own URL (a GET form's downloads). */
export function ModelButtons({
  models,
  label,
}: {
  models: ModelTarget[]
  label: (fileName: string) => string
}) {
  return (
    <div className="flex flex-wrap gap-2 sm:col-span-3">
      {models.map((m) => (
        <button
          key={m.id}
          type="submit"
          formAction={m.action}
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
