/**
 * My Projects: the assigned jobs as cards (phone first), each
 * opening its job dialog by URL (`?project=ID`).
 */
import { Link } from '@remix-run/react'
import type { ListedFile } from '#app/components/files/file-groups.tsx'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import { formatDate } from '#app/domain/format/dates.ts'
import { formatFlightHours } from '#app/domain/pilot/schemas.ts'

import { JobDialog } from './job-dialog.tsx'
import type { JobMission, PilotJob } from './types.ts'

const LIST_URL = '/dashboard?tab=projects'

function MediaFlag({ on, label }: { on: boolean; label: string }) {
  return (
    <span className={on ? 'badge bg-emerald-100 text-emerald-800' : 'badge bg-ink-100 text-ink-500'}>
      {on ? `${label} uploaded` : `No ${label.toLowerCase()}`}
    </span>
  )
}

export function PilotProjectsTab({
  projects,
  openProjectId,
  tileUrl,
  pilotId,
  files,
  mission,
}: {
  projects: PilotJob[]
  openProjectId: number | null
  tileUrl: string
  pilotId: number
  /** The open job's files. */
  files: ListedFile[]
  /** The open job's drone and mission file. */
  mission: JobMission | null
}) {
  const open = projects.find((p) => p.id === openProjectId)
  return (
    <section className="space-y-4" aria-labelledby="pilot-projects-heading">
      <div>
        <h2 id="pilot-projects-heading" className="text-lg font-semibold text-ink-950">
          My Projects
        </h2>
        <p className="text-sm text-ink-500">
          Your assigned survey flights. Open a job for the areas, the flight plan and to log your flight time.
        </p>
      </div>
      {projects.length === 0 ? (
        <div className="card p-8 text-center">
          <p className="text-sm text-ink-600">
            No projects assigned to you yet. New assignments arrive by e-mail with a job card.
          </p>
        </div>
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2" data-testid="pilot-project-list">
          {projects.map((job) => (
            <li
              key={job.id}
              className="card flex min-w-0 flex-col p-4 sm:p-5"
              data-testid={`pilot-project-${job.id}`}
            >
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <h3 className="break-words text-base font-semibold text-ink-950">{job.name}</h3>
                  <p className="truncate text-sm text-ink-600">{job.location ?? 'Site on the flight plan'}</p>
                </div>
                <StatusBadge status={job.status} className="shrink-0" />
              </div>
              <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
                <dt className="text-ink-500">Client</dt>
                <dd className="min-w-0 truncate text-ink-800">{job.clientName}</dd>
                <dt className="text-ink-500">E-mail</dt>
                <dd className="min-w-0 break-all">
                  <a className="link" href={`mailto:${job.clientEmail}`}>
                    {job.clientEmail}
                  </a>
                </dd>
                <dt className="text-ink-500">Deadline</dt>
                <dd className="text-ink-800">{formatDate(job.deadline)}</dd>
                <dt className="text-ink-500">Flight hours</dt>
                <dd className="text-ink-800">{formatFlightHours(job.flightHours)}</dd>
              </dl>
              <div className="mt-3 flex flex-wrap gap-2">
                <MediaFlag on={job.hasImages} label="Images" />
                <MediaFlag on={job.hasVideos} label="Videos" />
              </div>
              <div className="mt-4 border-t border-ink-100 pt-4">
                <Link
                  to={`/dashboard?project=${job.id}`}
                  preventScrollReset
                  className="btn-primary btn-sm w-full sm:w-auto"
                >
                  View Details
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      {open ? (
        <JobDialog
          job={open}
          closeTo={LIST_URL}
          tileUrl={tileUrl}
          pilotId={pilotId}
          files={files}
          mission={mission}
        />
      ) : null}
    </section>
  )
}
