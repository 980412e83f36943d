/**
 * `/projects/{id}/processing` — how the photos' processing is going, for the project's client,
 * its assigned pilot and admins (404 for anyone else): "Processing your survey — 62 %". The
 * status is in the HTML; while a job runs the page refreshes itself every 15 s (a meta
 * refresh, so it works without JavaScript) and has a Refresh link.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import { elapsedOf, progressText } from '#app/components/processing/processing-panel.tsx'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { projectProcessing } from '#app/domain/processing/jobs.server.ts'
import { isActiveProcessing, PROCESSING_STATUS_LABELS } from '#app/domain/processing/presets.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { plural } from '#app/lib/format/numbers.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'

const REFRESH_SECONDS = 15

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: 'Processing · Kestrel Aerial Survey' },
  ...(data?.jobs.some((j) => isActiveProcessing(j.status))
    ? [{ httpEquiv: 'refresh', content: String(REFRESH_SECONDS) } as const]
    : []),
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const projectId = pageId(params.projectId)
  return asPage(() => {
    const processing = projectProcessing(user, projectId)
    const { project } = processing
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
    }))
    const back =
      user.role === 'admin'
        ? `/admin/projects/${project.id}#pd-processing`
        : `/dashboard?tab=projects&view=${project.id}`
    return json(
      { project: { id: project.id, name: project.name }, jobs, back },
      { headers: { 'Cache-Control': 'private, no-store' } },
    )
  })
}

/** The one line a client reads: what is happening to the survey now. */
function processingHeadline(job: { status: string; progressPercent: number } | undefined) {
  if (!job) return 'Your photos have not been processed yet.'
  if (job.status === 'completed') return 'Your survey is processed; the map is being checked.'
  if (job.status === 'failed' || job.status === 'canceled') return 'Processing stopped; our team is on it.'
  return `Processing your survey — ${progressText(job.progressPercent)}`
}

export default function ProcessingPage() {
  const { project, jobs, back } = useLoaderData<typeof loader>()
  const latest = jobs[0]
  const active = Boolean(latest && isActiveProcessing(latest.status))
  return (
    <AppShell>
      <main className="mx-auto max-w-2xl px-4 py-8 sm:px-6 sm:py-10">
        <PageCard
          title={<>Processing {project.name}</>}
          description="Turning the flight’s photos into your map."
        >
          <p className="text-lg font-semibold text-ink-950" data-testid="processing-headline" role="status">
            {processingHeadline(latest)}
          </p>
          {latest && active ? (
            <>
              <progress className="mt-3 h-2 w-full" max={100} value={latest.progressPercent}>
                {progressText(latest.progressPercent)}
              </progress>
              <p className="mt-2 text-sm text-ink-600">
                {PROCESSING_STATUS_LABELS[latest.status]} · {plural(latest.imagesCount, 'photo')} ·{' '}
                {elapsedOf(latest)}
              </p>
              <p className="mt-3 text-xs text-ink-500">
                This page refreshes itself every {REFRESH_SECONDS} seconds.{' '}
                <Link to="." reloadDocument className="link">
                  Refresh now
                </Link>
              </p>
            </>
          ) : null}
          {jobs.length > 1 || (latest && !active) ? (
            <ul className="mt-5 space-y-1 text-sm text-ink-700">
              {jobs.map((j) => (
                <li key={j.id}>
                  {formatDate(j.createdAt, { withTime: true })}: {PROCESSING_STATUS_LABELS[j.status]}
                  {j.error ? ` — ${j.error}` : ''}
                </li>
              ))}
            </ul>
          ) : null}
          {latest?.status === 'completed' ? (
            <p className="mt-4">
              <Link to={`/projects/${project.id}/map`} className="link">
                Open the Map view
              </Link>
            </p>
          ) : null}
          <p className="mt-6">
            <Link to={back} className="link">
              Back to the project
            </Link>
          </p>
        </PageCard>
      </main>
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
