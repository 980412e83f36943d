/**
 * The admin's Processing panel in the project dialog: the photo check, "Process photos" with a
 * preset (a plain form, no JavaScript needed), then each job's stage, progress, node and
 * elapsed time, with Cancel and Restart. With JavaScript the jobs update in place.
 */
import { Form, Link } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending, usePendingFormData } from '#app/components/ui/use-is-pending.ts'
import type { PhotoCheck, PhotoProblem } from '#app/domain/processing/photo-check.ts'
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
import type { ProcessingSkip } from '#db/schema.ts'
import { useId } from 'react'

import { JobOutputsForm, OutputsFieldset } from './job-outputs-form.tsx'
import { PhotoCheckList } from './photo-check-list.tsx'
import { useLiveData, useNow } from './use-live-processing.ts'

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
  outputs: JobOutputs
  outputsState: OutputsState
  /** What the import left out of the node's results (admins' answers only). */
  skipped?: ProcessingSkip[]
  deliverWhenDone: boolean
  /** Completed, delivering itself once its viewing copies are ready. */
  awaitingDelivery: boolean
  acceptedWarnings?: PhotoProblem[] | null
  /** The admin's: what was done when the job ended (null while that is due). */
  followUpNote?: string | null
}

/** Whether a job may still change soon: running, or completed and about to deliver itself. */
function isLiveJob(job: Pick<PanelJob, 'status' | 'awaitingDelivery'>) {
  return isActiveProcessing(job.status) || job.awaitingDelivery
}

/** "Processing — 62 %" while it runs; the plain label ("Cancelled", "Failed") once it has ended. */
export function statusText(job: Pick<PanelJob, 'status' | 'progressPercent'>) {
  const label = PROCESSING_STATUS_LABELS[job.status]
  return isActiveProcessing(job.status) ? `${label} — ${progressText(job.progressPercent)}` : label
}

export function progressText(percent: number) {
  return `${formatNumber(percent, 0)} %`
}

export function elapsedOf(job: Pick<PanelJob, 'startedAt' | 'createdAt' | 'finishedAt'>, now = Date.now()) {
  const from = new Date(job.startedAt ?? job.createdAt).getTime()
  const to = job.finishedAt ? new Date(job.finishedAt).getTime() : now
  return formatElapsed(to - from)
}

/** The products the import left out, each with its path in all.zip and the reason. */
function SkippedList({ skipped }: { skipped: ProcessingSkip[] }) {
  return (
    <details className="mt-1 text-xs text-ink-600" data-testid="processing-skipped">
      <summary className="cursor-pointer">
        {plural(skipped.length, 'product')} skipped from the results
      </summary>
      <ul className="mt-1 list-disc pl-5">
        {skipped.map((s) => (
          <li key={s.path}>
            <code className="break-all">{s.path}</code>: {s.reason}
          </li>
        ))}
      </ul>
    </details>
  )
}

function JobCard({ job, action, now }: { job: PanelJob; action: string; now: number }) {
  const pending = usePendingFormData({ fields: { jobId: String(job.id) } })
  const busy = (intent: string) => pending?.get('intent') === intent
  const active = isActiveProcessing(job.status)
  return (
    <li
      className="rounded-lg border border-ink-100 p-3"
      data-testid={`processing-job-${job.id}`}
      data-status={job.status}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm font-semibold text-ink-950" data-testid="processing-job-status">
          {PRESET_LABELS[job.preset]} · {statusText(job)}
        </p>
        <p className="text-xs text-ink-500">
          {job.nodeLabel ?? 'No node yet'} · {plural(job.imagesCount, 'photo')} ·{' '}
          <span data-testid="processing-elapsed">{elapsedOf(job, now)}</span> ·{' '}
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
      {job.stage && active ? (
        <p className="mt-1 text-xs text-ink-600" data-testid="processing-stage">
          {job.stage}
        </p>
      ) : null}
      {job.deliverWhenDone && (active || job.awaitingDelivery) ? (
        <p className="mt-1 text-xs text-ink-600">Delivered to the client when the results are ready.</p>
      ) : null}
      {job.followUpNote && !job.awaitingDelivery ? (
        <p className="mt-1 text-xs text-ink-700" data-testid="processing-follow-up">
          {job.followUpNote}
        </p>
      ) : null}
      {job.acceptedWarnings?.length ? (
        <p className="mt-1 text-xs text-ink-500">
          Started with {plural(job.acceptedWarnings.length, 'photo problem')} accepted.
        </p>
      ) : null}
      {job.error ? (
        <p className="mt-1 text-xs text-red-700" role="alert">
          {job.error}
        </p>
      ) : null}
      {job.skipped?.length ? <SkippedList skipped={job.skipped} /> : null}
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
              pendingLabel="Cancelling…"
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

export interface ProcessingPanelData {
  jobs: PanelJob[]
  photoCount: number
  photoCheck: PhotoCheck
  /** The Process form's default (the admin setting). */
  deliverWhenDone: boolean
  nodes: Array<{ id: number; label: string; online: boolean }>
  renderedAt: number
}

export function ProcessingPanel({
  projectId,
  action,
  refreshTo,
  ...data
}: ProcessingPanelData & { projectId: number; action: string; refreshTo: string }) {
  const starting = useIsPending({ intent: 'processing-start' })
  const nodeSelectId = useId()
  const loaded = useLiveData(`/api/projects/${projectId}/processing`, { jobs: data.jobs }, (d) =>
    d.jobs.some(isLiveJob),
  )
  const jobs = loaded.jobs.slice(0, 5)
  const running = jobs.some((j) => isActiveProcessing(j.status))
  const now = useNow(running, data.renderedAt)
  const { photoCount, photoCheck, nodes } = data
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
        {running ? (
          <>
            {' '}
            ·{' '}
            <Link to={refreshTo} reloadDocument className="link">
              Refresh
            </Link>
          </>
        ) : null}
      </p>
      {jobs.length ? (
        <ul className="mt-3 space-y-2" aria-live="polite">
          {jobs.map((job) => (
            <JobCard key={job.id} job={job} action={action} now={now} />
          ))}
        </ul>
      ) : null}
      {running || photoCount === 0 ? null : (
        <>
          <PhotoCheckList check={photoCheck} />
          {photoCheck.refusal ? null : (
            <StartForm
              action={action}
              starting={starting}
              nodeSelectId={nodeSelectId}
              nodes={nodes}
              hasProblems={photoCheck.problems.length > 0}
              deliverWhenDone={data.deliverWhenDone}
            />
          )}
        </>
      )}
    </section>
  )
}

function StartForm({
  action,
  starting,
  nodeSelectId,
  nodes,
  hasProblems,
  deliverWhenDone,
}: {
  action: string
  starting: boolean
  nodeSelectId: string
  nodes: ProcessingPanelData['nodes']
  hasProblems: boolean
  deliverWhenDone: boolean
}) {
  return (
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
          selectProps={{ id: nodeSelectId, name: 'nodeId', defaultValue: '' }}
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
      <label className="flex items-start gap-2 text-sm text-ink-900">
        <input
          type="checkbox"
          name="deliverWhenDone"
          defaultChecked={deliverWhenDone}
          className="mt-0.5 h-4 w-4 rounded border-ink-300"
        />
        <span>
          Deliver to the client when done
          <span className="block text-xs text-ink-500">
            The project completes itself and the client is e-mailed once the results’ viewing copies are
            ready. Unticked, you review the results and press Complete.
          </span>
        </span>
      </label>
      {hasProblems ? (
        <label className="flex items-start gap-2 text-sm text-ink-900">
          <input
            type="checkbox"
            name="acceptWarnings"
            required
            className="mt-0.5 h-4 w-4 rounded border-ink-300"
          />
          <span>Process anyway: I have looked at the photo check’s problems</span>
        </label>
      ) : null}
      <OutputsFieldset />
      <StatusButton pending={starting} pendingLabel="Starting…">
        Process photos
      </StatusButton>
    </Form>
  )
}
