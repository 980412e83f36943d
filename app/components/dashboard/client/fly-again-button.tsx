/**
 * "Fly this again": a plain form posting to `/projects/ID/repeat`, which quotes the
 * same areas at today's prices and opens the new quote's checkout. Works without JavaScript;
 * with it the button says it is busy.
 */
import { Form } from '@remix-run/react'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'

export function FlyAgainButton({ projectId, testId }: { projectId: number; testId?: string }) {
  const action = `/projects/${projectId}/repeat`
  const pending = useIsPending({ formAction: action })
  return (
    <Form method="post" action={action} className="contents">
      <StatusButton pending={pending} pendingLabel="Quoting…" className="btn-sm" data-testid={testId}>
        Fly this again
      </StatusButton>
    </Form>
  )
}
