/**
 * What a processing job's outputs do to the project's earlier ones (plain forms, no JavaScript
 * needed): the choice when starting, and on a job not yet published, with "Publish now" for
 * one a failed viewing copy holds.
 */
import { Form } from '@remix-run/react'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { OUTPUTS_LABELS, type OutputsState } from '#app/domain/processing/presets.ts'
import { JOB_OUTPUTS, type JobOutputs, type ProcessingStatus } from '#db/enums.ts'

export function OutputsFieldset({ defaultValue = 'replace' }: { defaultValue?: JobOutputs }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-ink-900">When the job completes</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {JOB_OUTPUTS.map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm text-ink-900">
            <input type="radio" name="outputs" value={value} defaultChecked={value === defaultValue} />
            {OUTPUTS_LABELS[value]}
          </label>
        ))}
      </div>
      <p className="mt-1 text-xs text-ink-500">
        The client keeps the current deliverables until the new ones and their viewing copies are ready.
      </p>
    </fieldset>
  )
}

const STATE_TEXT: Record<Exclude<OutputsState, null>, string> = {
  published: 'Published to the project’s deliverables.',
  copying:
    'Published once their viewing copies are made; the client keeps the current deliverables until then.',
  held: 'Held: a viewing copy failed. The client keeps the current deliverables until you publish them.',
}

/** The state of a completed job's outputs and, until they are published, the choice. */
export function JobOutputsForm({
  job,
  action,
}: {
  job: { id: number; status: ProcessingStatus; outputs: JobOutputs; outputsState: OutputsState }
  action: string
}) {
  const pending = useIsPending({ intent: 'processing-outputs', fields: { jobId: String(job.id) } })
  const settled = job.status === 'failed' || job.status === 'canceled' || job.outputsState === 'published'
  const held = job.outputsState === 'held'
  return (
    <>
      {job.outputsState ? (
        <p className="mt-1 text-xs text-ink-600" data-testid={`outputs-state-${job.id}`}>
          {STATE_TEXT[job.outputsState]}
        </p>
      ) : null}
      {settled ? null : (
        <Form method="post" action={action} className="mt-2 space-y-2">
          <input type="hidden" name="intent" value="processing-outputs" />
          <input type="hidden" name="jobId" value={job.id} />
          {held ? <input type="hidden" name="publishNow" value="true" /> : null}
          <OutputsFieldset defaultValue={job.outputs} />
          <StatusButton
            pending={pending}
            pendingLabel={held ? 'Publishing…' : 'Saving…'}
            className="btn-secondary btn-sm"
          >
            {held ? 'Publish now' : 'Save choice'}
          </StatusButton>
        </Form>
      )}
    </>
  )
}
