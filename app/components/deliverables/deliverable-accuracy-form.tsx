/**
 * The admin's accuracy statement for one deliverable: a plain post (`intent=deliverable-accuracy`,
 * `fileId`, the four figures; `clear` removes it), so it works without JavaScript. The same
 * change is `PUT /api/projects/{id}/deliverables/{fileId}/accuracy`.
 */
import { Form } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import type { Deliverable } from '#app/domain/deliverables/deliverable.ts'

export const DELIVERABLE_ACCURACY_INTENT = 'deliverable-accuracy'

type Errors = Partial<Record<'horizontalRmseM' | 'verticalRmseM' | 'gcpCount' | 'checkpointCount', string[]>>

const FIELDS = [
  { name: 'horizontalRmseM', label: 'Horizontal RMSE (m)', step: 'any', inputMode: 'decimal' },
  { name: 'verticalRmseM', label: 'Vertical RMSE (m)', step: 'any', inputMode: 'decimal' },
  { name: 'gcpCount', label: 'GCPs', step: '1', inputMode: 'numeric' },
  { name: 'checkpointCount', label: 'Check points', step: '1', inputMode: 'numeric' },
] as const

export function DeliverableAccuracyForm({
  deliverable,
  action,
  errors,
}: {
  deliverable: Deliverable
  action: string
  /** The last post's field errors for this deliverable (the action's 400 answer). */
  errors?: Errors
}) {
  const pending = useIsPending({
    intent: DELIVERABLE_ACCURACY_INTENT,
    fields: { fileId: String(deliverable.id) },
  })
  const current = deliverable.accuracy
  return (
    <Form
      method="post"
      action={action}
      preventScrollReset
      className="space-y-2"
      aria-label={`Accuracy of ${deliverable.fileName}`}
    >
      <input type="hidden" name="intent" value={DELIVERABLE_ACCURACY_INTENT} />
      <input type="hidden" name="fileId" value={deliverable.id} />
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {FIELDS.map((f) => (
          <Field
            key={f.name}
            labelProps={{ children: f.label }}
            errors={errors?.[f.name]}
            inputProps={{
              id: `accuracy-${f.name}-${deliverable.id}`,
              name: f.name,
              type: 'number',
              step: f.step,
              min: 0,
              inputMode: f.inputMode,
              defaultValue: current ? String(current[f.name]) : '',
              className: 'py-1.5 text-sm',
            }}
          />
        ))}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        {current ? (
          <button type="submit" name="clear" value="1" className="btn-secondary btn-sm" formNoValidate>
            Remove statement
          </button>
        ) : null}
        <StatusButton pending={pending} pendingLabel="Saving…" variant="secondary" className="btn-sm">
          Save accuracy
        </StatusButton>
      </div>
    </Form>
  )
}
