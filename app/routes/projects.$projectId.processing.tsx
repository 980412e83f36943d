/**
 * `/projects/{id}/processing` — how the photos' processing is going, for the project's client,
 * its assigned pilot and admins (404 for anyone else): "Processing your survey — 62 %", ODM's
 * stage in plain words and the time it has taken. With JavaScript it updates in place (a
 * polling fetcher); without, while anything may change it refreshes itself every 15 s (a meta
 * refresh inside <noscript>) and has a Refresh link.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { ProjectSubpage } from '#app/components/layout/project-subpage.tsx'
import { elapsedOf, progressText } from '#app/components/processing/processing-panel.tsx'
import { useLiveData, useNow } from '#app/components/processing/use-live-processing.ts'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { projectProcessing } from '#app/domain/processing/jobs.server.ts'
import { isActiveProcessing, PROCESSING_STATUS_LABELS } from '#app/domain/processing/presets.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { plural } from '#app/lib/format/numbers.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import type { ProcessingStatus } from '#db/enums.ts'

const REFRESH_SECONDS = 15

export const meta: MetaFunction<typeof loader> = () => [{ title: 'Processing · Kestrel Aerial Survey' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const projectId = pageId(params.projectId)
  return asPage(() => {
    const processing = projectProcessing(user, projectId)
    const { project } = processing
    const delivered = project.status === 'completed'
    const jobs = processing.jobs.map((j) => ({
      id: j.id,
      status: j.status,
      progressPercent: j.progressPercent,
      stage: j.stage,
      imagesCount: j.imagesCount,
      createdAt: j.createdAt,
      startedAt: j.startedAt,
      finishedAt: j.finishedAt,
      error: j.error,
      deliverableIds: j.deliverableIds,
      // Completed, to be delivered by itself once its viewing copies are ready.
      delivering: j.awaitingDelivery && !delivered,
    }))
    const latest = jobs[0]
    const back =
      user.role === 'admin'
        ? `/admin/projects/${project.id}#pd-processing`
        : `/dashboard?tab=projects&view=${project.id}`
    return json(
      {
        project: { id: project.id, name: project.name, delivered },
        jobs,
        back,
        live: Boolean(latest && (isActiveProcessing(latest.status) || latest.delivering)),
        renderedAt: Date.now(),
      },
      { headers: { 'Cache-Control': 'private, no-store' } },
    )
  })
}

type PageJob = {
  status: ProcessingStatus
  progressPercent: number
  delivering: boolean
}

/** The one line a client reads: what is happening to the survey now. */
function processingHeadline(job: PageJob | undefined, delivered: boolean) {
  if (!job) return 'Your photos have not been processed yet.'
  if (job.status === 'completed') {
    if (delivered) return 'Your survey data is ready.'
    return job.delivering
      ? 'Processed — preparing your map'
      : 'Processed — the operator is checking the results'
  }
  if (job.status === 'canceled') return 'Cancelled'
  if (job.status === 'failed') return 'Processing stopped; our team is on it.'
  return `Processing your survey — ${progressText(job.progressPercent)}`
}

export default function ProcessingPage() {
  const loaded = useLoaderData<typeof loader>()
  const data = useLiveData(`/projects/${loaded.project.id}/processing`, loaded, (d) => d.live)
  const { project, jobs, back, live } = data
  const latest = jobs[0]
  const active = Boolean(latest && isActiveProcessing(latest.status))
  const now = useNow(active, loaded.renderedAt)
  return (
    <ProjectSubpage
      title={<>Processing {project.name}</>}
      description="Turning the flight’s photos into your map."
      back={back}
    >
      {live ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      ) : null}
      <p className="text-lg font-semibold text-ink-950" data-testid="processing-headline" role="status">
        {processingHeadline(latest, project.delivered)}
      </p>
      {latest && active ? (
        <>
          <progress className="mt-3 h-2 w-full" max={100} value={latest.progressPercent}>
            {progressText(latest.progressPercent)}
          </progress>
          <p className="mt-2 text-sm text-ink-600" data-testid="processing-stage">
            {latest.stage} · {plural(latest.imagesCount, 'photo')} ·{' '}
            <span data-testid="processing-elapsed">{elapsedOf(latest, now)}</span>
          </p>
        </>
      ) : null}
      {live ? (
        <p className="mt-3 text-xs text-ink-500">
          This page keeps itself up to date.{' '}
          <Link to="." reloadDocument className="link">
            Refresh now
          </Link>
        </p>
      ) : null}
      {jobs.length > 1 || (latest && !active) ? (
        <ul className="mt-5 space-y-1 text-sm text-ink-700">
          {jobs.map((j) => (
            <li key={j.id}>
              {formatDate(j.createdAt, { withTime: true })}: {PROCESSING_STATUS_LABELS[j.status]}
              {j.finishedAt ? ` after ${elapsedOf(j)}` : ''}
              {j.error ? ` — ${j.error}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {project.delivered ? (
        <p className="mt-4">
          <Link to={`/projects/${project.id}/map`} className="link">
            Open the Map view
          </Link>
        </p>
      ) : null}
    </ProjectSubpage>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
