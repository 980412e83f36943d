/**
 * The admin's Processing panel in the project dialog: "Process photos" with a preset (a
 * plain form, no JavaScript needed), then each job's stage, progress, node and the node's
 * last words, with Cancel and Restart.
 */
import { Form } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending, usePendingFormData } from '#app/components/ui/use-is-pending.ts'
import {
  isActiveProcessing,
  PRESET_DESCRIPTIONS,
  PRESET_LABELS,
  PROCESSING_PRESETS,
  PROCESSING_STATUS_LABELS,
  type OutputsState,
  type ProcessingPreset,
} from '#app/domain/processing/presets.ts'
import { formatDate, formatElapsed } from '#app/lib/format/dates.ts'
import { formatNumber, plural } from '#app/lib/format/numbers.ts'
import type { JobOutputs, ProcessingStatus } from '#db/enums.ts'
import { useId } from 'react'

import { JobOutputsForm, OutputsFieldset } from './job-outputs-form.tsx'

export interface PanelJob {
  id: number
  status: ProcessingStatus
  progressPercent: number
  stage: string | null
  imagesCount: number
  imagesUploaded: number
  nodeLabel: string | null
  preset: ProcessingPreset
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  error: string | null
  deliverableIds: number[]
  publication: { outputs: JobOutputs; state: OutputsState }
}

export function progressText(percent: number) {
  return `${formatNumber(percent, 0)} %`
}

export function elapsedOf(job: Pick<PanelJob, 'startedAt' | 'createdAt' | 'finishedAt'>, now = Date.now()) {
  const from = new Date(job.startedAt ?? job.createdAt).getTime()
  const to = job.finishedAt ? new Date(job.finishedAt).getTime() : now
  return formatElapsed(to - from)
}

function JobCard({ job, action }: { job: PanelJob; action: string }) {
  const pending = usePendingFormData({ fields: { jobId: String(job.id) } })
  const busy = (intent: string) => pending?.get('intent') === intent
  const active = isActiveProcessing(job.status)
  return (
    <li className="rounded-lg border border-ink-100 p-3" data-testid={`processing-job-${job.id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm font-semibold text-ink-950">
          {PRESET_LABELS[job.preset]} · {PROCESSING_STATUS_LABELS[job.status]}
          {active ? ` — ${progressText(job.progressPercent)}` : ''}
        </p>
        <p className="text-xs text-ink-500">
          {job.nodeLabel ?? 'No node yet'} · {plural(job.imagesCount, 'photo')} · {elapsedOf(job)} ·{' '}
          {formatDate(job.createdAt, { withTime: true })}
        </p>
      </div>
      {active ? (
        <progress
          className="mt-2 h-2 w-full"
          max={100}
          value={job.progressPercent}
          aria-label="Processing progress"
        >
          {progressText(job.progressPercent)}
        </progress>
      ) : null}
      {job.stage ? <p className="mt-1 text-xs text-ink-600">{job.stage}</p> : null}
      {job.error ? (
        <p className="mt-1 text-xs text-red-700" role="alert">
          {job.error}
        </p>
      ) : null}
      {job.status === 'completed' ? (
        <p className="mt-1 text-xs text-ink-600">
          {plural(job.deliverableIds.length, 'deliverable')} added to the files below.
        </p>
      ) : null}
      <JobOutputsForm job={job} action={action} />
      <div className="mt-2 flex flex-wrap items-end gap-2">
        {active ? (
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="processing-cancel" />
            <input type="hidden" name="jobId" value={job.id} />
            <StatusButton
              pending={busy('processing-cancel')}
              pendingLabel="Canceling…"
              className="btn-secondary btn-sm"
            >
              Cancel processing
            </StatusButton>
          </Form>
        ) : null}
        {job.status === 'failed' || job.status === 'canceled' ? (
          <Form method="post" action={action} className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="processing-restart" />
            <input type="hidden" name="jobId" value={job.id} />
            <label className="text-xs text-ink-600">
              Options (name=value a line; empty keeps them)
              <textarea
                name="options"
                rows={2}
                className="input mt-1 block w-full font-mono text-xs sm:w-72"
              />
            </label>
            <StatusButton
              pending={busy('processing-restart')}
              pendingLabel="Restarting…"
              className="btn-secondary btn-sm"
            >
              Restart
            </StatusButton>
          </Form>
        ) : null}
      </div>
    </li>
  )
}

export function ProcessingPanel({
  jobs,
  photoCount,
  nodes,
  action,
}: {
  jobs: PanelJob[]
  photoCount: number
  nodes: Array<{ id: number; label: string; online: boolean }>
  action: string
}) {
  const starting = useIsPending({ intent: 'processing-start' })
  const nodeSelectId = useId()
  const running = jobs.some((j) => isActiveProcessing(j.status))
  const online = nodes.filter((n) => n.online)
  return (
    <section
      aria-labelledby="pd-processing-title"
      className="mt-5 rounded-xl border border-ink-100 p-4"
      id="pd-processing"
    >
      <h3 id="pd-processing-title" className="text-sm font-semibold text-ink-950">
        Processing
      </h3>
      <p className="mt-1 text-xs text-ink-500">
        {plural(photoCount, 'uploaded photo')} · {plural(online.length, 'processing node')} online
      </p>
      {jobs.length ? (
        <ul className="mt-3 space-y-2">
          {jobs.map((job) => (
            <JobCard key={job.id} job={job} action={action} />
          ))}
        </ul>
      ) : null}
      {running || photoCount === 0 ? null : (
        <Form method="post" action={action} className="mt-3 space-y-3" data-testid="process-photos-form">
          <input type="hidden" name="intent" value="processing-start" />
          <fieldset>
            <legend className="text-sm font-medium text-ink-900">Preset</legend>
            <div className="mt-1 grid gap-2 sm:grid-cols-3">
              {PROCESSING_PRESETS.map((preset, i) => (
                <label key={preset} className="flex gap-2 rounded-lg border border-ink-100 p-2 text-sm">
                  <input type="radio" name="preset" value={preset} defaultChecked={i === 1} />
                  <span>
                    <span className="font-medium text-ink-950">{PRESET_LABELS[preset]}</span>
                    <span className="block text-xs text-ink-500">{PRESET_DESCRIPTIONS[preset]}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid gap-3 sm:grid-cols-2">
            <SelectField
              labelProps={{ children: 'Node' }}
              selectProps={{
                id: nodeSelectId,
                name: 'nodeId',
                defaultValue: '',
                className: 'mt-1 block w-full',
              }}
              placeholder="Any online node (shortest queue)"
              options={nodes.map((n) => ({
                value: String(n.id),
                label: `${n.label}${n.online ? '' : ' (offline)'}`,
              }))}
            />
            <label className="text-sm text-ink-900">
              More ODM options (name=value a line)
              <textarea
                name="options"
                rows={2}
                placeholder="orthophoto-resolution=2"
                className="input mt-1 block w-full font-mono text-xs"
              />
            </label>
          </div>
          <OutputsFieldset />
          <StatusButton pending={starting} pendingLabel="Starting…">
            Process photos
          </StatusButton>
        </Form>
      )}
    </section>
  )
}
