/**
 * The admin's view of a completed project's file retention (ADR 160): until when the
 * deliverables and flight media are available, or when they were deleted, and a plain
 * form to keep them longer (date + reason; works without JavaScript).
 */
import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { Field, TextareaField } from '#app/components/forms.tsx'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { KeepFilesSchema } from '#app/domain/files/retention.ts'
import { formatDate } from '#app/lib/format/dates.ts'

export const KEEP_FILES_INTENT = 'keep-files'

export interface RetentionView {
  availableUntil: string | null
  keptUntil: string | null
  stored: number
  removed: number
  removedAt: string | null
}

export function RetentionPanel({
  projectId,
  retention,
  reason,
  action,
  lastResult,
}: {
  projectId: number
  retention: RetentionView
  reason: string | null
  action: string
  lastResult?: SubmissionResult<string[]> | null
}) {
  const pending = useIsPending({ intent: KEEP_FILES_INTENT, state: 'submitting' })
  const [form, fields] = useForm({
    id: `keep-files-${projectId}`,
    constraint: getZodConstraint(KeepFilesSchema),
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: KeepFilesSchema }),
    shouldValidate: 'onSubmit',
  })
  const allRemoved = retention.stored === 0 && retention.removed > 0
  return (
    <section
      aria-labelledby={`retention-${projectId}`}
      className="mt-4 rounded-lg border border-ink-100 bg-ink-50/60 p-3"
      data-testid="retention-panel"
    >
      <h4 id={`retention-${projectId}`} className="text-sm font-semibold text-ink-950">
        Retention of imagery and deliverables
      </h4>
      {allRemoved ? (
        <p className="mt-1 text-sm text-ink-700" data-testid="retention-status">
          Deleted on {formatDate(retention.removedAt!)} ({retention.removed} file
          {retention.removed === 1 ? '' : 's'}). The list above is the record.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-ink-700" data-testid="retention-status">
            {retention.availableUntil ? (
              <>
                Available until <strong>{formatDate(retention.availableUntil)}</strong>; then the daily job
                deletes the deliverables and flight photos and videos.
              </>
            ) : null}
            {retention.keptUntil && reason ? <> Kept longer: {reason}</> : null}
          </p>
          <Form
            method="post"
            action={action}
            preventScrollReset
            {...getFormProps(form)}
            className="mt-3 grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-start"
          >
            <input type="hidden" name="intent" value={KEEP_FILES_INTENT} />
            <div className="sm:col-span-3 empty:hidden">
              <FormErrors id={`${form.id}-errors`} errors={form.errors} />
            </div>
            <Field
              labelProps={{ children: 'Keep until' }}
              errors={fields.keepUntil.errors}
              inputProps={getInputProps(fields.keepUntil, { type: 'date' })}
            />
            <TextareaField
              labelProps={{ children: 'Reason' }}
              errors={fields.reason.errors}
              textareaProps={{ ...getTextareaProps(fields.reason), rows: 1 }}
            />
            <div className="sm:pt-6">
              <StatusButton pending={pending} pendingLabel="Saving…" variant="secondary" className="btn-sm">
                Keep files
              </StatusButton>
            </div>
          </Form>
        </>
      )}
    </section>
  )
}
