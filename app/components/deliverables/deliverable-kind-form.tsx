/**
 * The admin's correction of a deliverable's kind: a plain post (`intent=deliverable-kind`,
 * `fileId`, `kind`) to the dialog's action, so it works without JavaScript. The same
 * change is `PATCH /api/projects/{id}/deliverables/{fileId}`.
 */
import { Form } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import {
  DELIVERABLE_KIND_LABELS,
  DELIVERABLE_KINDS,
  type Deliverable,
} from '#app/domain/deliverables/deliverable.ts'

export const DELIVERABLE_KIND_INTENT = 'deliverable-kind'

const KIND_OPTIONS = DELIVERABLE_KINDS.map((kind) => ({ value: kind, label: DELIVERABLE_KIND_LABELS[kind] }))

export function DeliverableKindForm({ deliverable, action }: { deliverable: Deliverable; action: string }) {
  const pending = useIsPending({
    intent: DELIVERABLE_KIND_INTENT,
    fields: { fileId: String(deliverable.id) },
  })
  return (
    <Form method="post" action={action} preventScrollReset className="flex items-end gap-2">
      <input type="hidden" name="intent" value={DELIVERABLE_KIND_INTENT} />
      <input type="hidden" name="fileId" value={deliverable.id} />
      <SelectField
        labelProps={{ children: 'Kind' }}
        className="min-w-0 flex-1"
        options={KIND_OPTIONS}
        selectProps={{
          id: `deliverable-kind-${deliverable.id}`,
          name: 'kind',
          defaultValue: deliverable.kind,
          className: 'py-1.5 text-sm',
        }}
      />
      <StatusButton pending={pending} pendingLabel="Saving…" variant="secondary" className="btn-sm">
        Save kind
      </StatusButton>
    </Form>
  )
}
