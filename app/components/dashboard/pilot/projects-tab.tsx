/**
 * My Projects: the assigned jobs as cards (phone first), each
 * opening its job dialog by URL (`?project=ID`).
 */
import { Link } from '@remix-run/react'
import { CardListSection } from '#app/components/ui/section-header.tsx'
import { formatFlightHours } from '#app/domain/pilot/schemas.ts'
import { formatDate } from '#app/lib/format/dates.ts'

import { ProjectListCard } from '../project-list-card.tsx'
import { JobDialog } from './job-dialog.tsx'
import type { OpenJob, PilotJob } from './types.ts'

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
  openJob,
  tileUrl,
  pilotId,
}: {
  projects: PilotJob[]
  openJob: OpenJob | null
  tileUrl: string
  pilotId: number
}) {
  const open = projects.find((p) => p.id === openJob?.id)
  return (
    <CardListSection
      id="pilot-projects-heading"
      title="My Projects"
      description="Your assigned survey flights. Open a job for the areas, the flight plan and to log your flight time."
      isEmpty={projects.length === 0}
      empty="No projects assigned to you yet. New assignments arrive by e-mail with a job card."
    >
      <ul className="grid grid-cols-1 gap-4 md:grid-cols-2" data-testid="pilot-project-list">
        {projects.map((job) => (
          <ProjectListCard
            key={job.id}
            name={job.name}
            detail={job.location ?? 'Site on the flight plan'}
            status={job.status}
            testId={`pilot-project-${job.id}`}
            facts={[
              ['Client', job.clientName],
              [
                'E-mail',
                <a key="e-mail" className="link break-all" href={`mailto:${job.clientEmail}`}>
                  {job.clientEmail}
                </a>,
              ],
              ['Deadline', formatDate(job.deadline)],
              ['Flight hours', formatFlightHours(job.flightHours)],
            ]}
            actions={
              <Link
                to={`/dashboard?project=${job.id}`}
                preventScrollReset
                className="btn-primary btn-sm w-full sm:w-auto"
              >
                View Details
              </Link>
            }
          >
            <div className="mt-3 flex flex-wrap gap-2">
              <MediaFlag on={job.hasImages} label="Images" />
              <MediaFlag on={job.hasVideos} label="Videos" />
            </div>
          </ProjectListCard>
        ))}
      </ul>
      {open && openJob ? (
        <JobDialog job={open} opened={openJob} closeTo={LIST_URL} tileUrl={tileUrl} pilotId={pilotId} />
      ) : null}
    </CardListSection>
  )
}
