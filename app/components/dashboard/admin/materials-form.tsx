/** Settings → Stockpile materials: the table of materials and densities, one "Name = density" a line. */
import { Form, useActionData } from '@remix-run/react'
import { Alert } from '#app/components/ui/alert.tsx'
import { SectionHeader } from '#app/components/ui/section-header.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'

const INTENT = 'admin-save-materials'

export function MaterialsSection({ materials }: { materials: string }) {
  const actionData = useActionData<{ intent?: string; materialsError?: string }>()
  const error = actionData?.intent === INTENT ? actionData.materialsError : undefined
  const pending = useIsPending({ intent: INTENT })
  return (
    <div className="card space-y-4 p-4 sm:p-6">
      <SectionHeader
        title="Stockpile materials"
        description="A stockpile note of a listed material weighs its net volume × this density unless the note gives its own."
      />
      <Form method="post" action="/admin?tab=settings" preventScrollReset className="space-y-3">
        <input type="hidden" name="intent" value={INTENT} />
        <label htmlFor="materials" className="block text-sm font-medium text-ink-800">
          Materials and bulk densities (t/m³), one per line
        </label>
        <textarea
          id="materials"
          name="materials"
          rows={8}
          defaultValue={materials}
          className="input font-mono text-sm"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'materials-error' : 'materials-hint'}
        />
        <p id="materials-hint" className="text-xs text-ink-500">
          Write each as “Name = density”, e.g. “Crushed stone 19 mm = 1,55”.
        </p>
        {error ? (
          <Alert tone="error" id="materials-error">
            {error}
          </Alert>
        ) : null}
        <div className="flex justify-end">
          <StatusButton pending={pending} pendingLabel="Saving…">
            Save Materials
          </StatusButton>
        </div>
      </Form>
    </div>
  )
}
