/**
 * One assigned job (the pilot's View Details): client contact, site, the areas on a
 * map (an SVG outline without JavaScript), the survey mission page and every mission
 * file (the one for the job's drone first), airspace zone and fee, the land owner form,
 * and 'Save Project Progress' or, once completed, the completion panel. A URL state (`/dashboard?project=ID`, the job card's link).
 */
import { Form, Link } from '@remix-run/react'
import { JobCoverage } from '#app/components/coverage/job-coverage.tsx'
import { FileGroups } from '#app/components/files/file-groups.tsx'
import { UploadWidget } from '#app/components/files/upload-widget.tsx'
import { AreasSketch } from '#app/components/maps/areas-sketch.tsx'
import { MapViewLink } from '#app/components/mapview/map-view-link.tsx'
import { SaveForOffline } from '#app/components/offline/offline-controls.tsx'
import { ColorDot } from '#app/components/ui/color-dot.tsx'
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { LoadFallbackBoundary } from '#app/components/ui/load-fallback-boundary.tsx'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { UrlDialog } from '#app/components/ui/url-dialog.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { UPLOAD_CATEGORIES_BY_ROLE } from '#app/domain/files/rules.ts'
import { PARSE_FAILURE_MESSAGE } from '#app/domain/flight-plan/flight-plan.ts'
import { formatFlightHours } from '#app/domain/pilot/schemas.ts'
import { projectTypeLabel } from '#app/domain/projects/project-schemas.ts'
import { MISSION_FILE_LABELS, missionFileUrl, missionFormatsFor } from '#app/domain/survey/mission-files.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatPhone, formatRand, formatSquareMetres, phoneHref } from '#app/lib/format/numbers.ts'
import { lazy, Suspense } from 'react'

import { ProgressForm } from './progress-form.tsx'
import type { JobMission, OpenJob, PilotJob } from './types.ts'

// Leaflet loads only when a job's map is shown, so the dashboard itself ships no map code.
const AreasMap = lazy(() =>
  import('#app/components/maps/areas-map.client.tsx').then((m) => ({ default: m.AreasMap })),
)

const PILOT_CATEGORIES = UPLOAD_CATEGORIES_BY_ROLE.pilot

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section className="rounded-xl border border-ink-100 p-4" data-testid={testId}>
      <h3 className="mb-2 text-sm font-semibold text-ink-950">{title}</h3>
      {children}
    </section>
  )
}

/** 'Photo upload finished': tells the office the photos are all in (processing may start from it). */
function PhotosUploadedForm({
  jobId,
  action,
  markedAt,
}: {
  jobId: number
  action: string
  markedAt: Date | string | null
}) {
  const pending = useIsPending({ intent: 'photos-uploaded' })
  return (
    <Form
      method="post"
      action={action}
      preventScrollReset
      className="mb-4 flex flex-col gap-2 rounded-lg bg-ink-50 p-3 sm:flex-row sm:items-center sm:justify-between"
      data-testid="photos-uploaded-form"
    >
      <input type="hidden" name="intent" value="photos-uploaded" />
      <input type="hidden" name="projectId" value={jobId} />
      <p className="text-sm text-ink-700">
        {markedAt
          ? `Photo upload marked finished on ${formatDate(markedAt)}. Uploaded more? Mark it again.`
          : 'When every photo is uploaded, tell the office.'}
      </p>
      <StatusButton pending={pending} pendingLabel="Saving…" variant="secondary" className="w-full sm:w-auto">
        Photo Upload Finished
      </StatusButton>
    </Form>
  )
}

/** What the pilot flies: the survey mission page and every mission file, the drone's own first. */
function MissionFiles({ jobId, mission }: { jobId: number; mission: JobMission | null }) {
  const available = missionFormatsFor(mission?.droneName ?? null)
  const formats = mission ? [mission.format, ...available.filter((f) => f !== mission.format)] : available
  return (
    <Section title="Mission" testId="job-mission">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-ink-700">
          {mission ? `Planned for the ${mission.droneName}.` : 'No survey plan yet.'}
        </p>
        <Link className="btn-primary btn-sm" to={`/projects/${jobId}/survey`}>
          Open survey mission
        </Link>
      </div>
      <ul className="mt-3 flex flex-wrap gap-2" aria-label="Mission files">
        {formats.map((format) => (
          <li key={format}>
            <a
              className={format === mission?.format ? 'btn-primary btn-sm' : 'btn-secondary btn-sm'}
              href={missionFileUrl(jobId, format)}
              download
            >
              {MISSION_FILE_LABELS[format]}
              {format === mission?.format ? <span className="sr-only"> (for this drone)</span> : null}
            </a>
          </li>
        ))}
      </ul>
      {mission ? (
        <p className="mt-2 text-xs text-ink-600">
          {MISSION_FILE_LABELS[mission.format]} is the file this drone flies from; it is kept with the job
          when you save it for offline use.
        </p>
      ) : null}
    </Section>
  )
}

export function JobDialog({
  job,
  opened: { files, mission },
  closeTo,
  tileUrl,
  pilotId,
}: {
  job: PilotJob
  /** The job's files and mission file (loaded for the opened job only). */
  opened: OpenJob
  closeTo: string
  tileUrl: string
  pilotId: number
}) {
  const hydrated = useHydrated()
  const plan = job.flightPlan
  const areas = plan?.areas ?? []
  const action = `/dashboard?project=${job.id}`
  // The outline stands in for the map without JavaScript, while its code loads, and if it can't.
  const sketch = (
    <AreasSketch areas={areas} label={`Outline of the ${areas.length} survey areas of ${job.name}`} />
  )
  const filesAction = `/pilot/projects/${job.id}/files`
  const mapsLink =
    job.latitude != null && job.longitude != null
      ? `https://www.google.com/maps/dir/?api=1&destination=${job.latitude},${job.longitude}`
      : null
  return (
    <UrlDialog
      title={job.name}
      description={
        <>
          Project #{job.id} · <StatusBadge status={job.status} />
        </>
      }
      closeTo={closeTo}
      size="lg"
      testId="job-dialog"
    >
      <div className="space-y-4">
        <SaveForOffline
          jobId={job.id}
          userId={pilotId}
          areas={areas.map((a) => a.points)}
          tileTemplate={tileUrl}
          missionFile={mission ? missionFileUrl(job.id, mission.format) : null}
        />
        <div className="grid gap-4 md:grid-cols-2">
          <Section title="Client">
            <dl className="divide-y divide-ink-100">
              <DetailRow label="Name">
                {job.clientName}
                {job.clientCompany ? ` (${job.clientCompany})` : ''}
              </DetailRow>
              <DetailRow label="E-mail">
                <a className="link" href={`mailto:${job.clientEmail}`}>
                  {job.clientEmail}
                </a>
              </DetailRow>
              {job.clientPhone ? (
                <DetailRow label="Phone">
                  <a className="link" href={phoneHref(job.clientPhone)}>
                    {formatPhone(job.clientPhone)}
                  </a>
                </DetailRow>
              ) : null}
            </dl>
          </Section>
          <Section title="Site">
            <dl className="divide-y divide-ink-100">
              <DetailRow label="Location">{job.location ?? '—'}</DetailRow>
              {mapsLink ? (
                <DetailRow label="Directions">
                  <a className="link" href={mapsLink} target="_blank" rel="noreferrer">
                    Open in Maps
                  </a>
                </DetailRow>
              ) : null}
              <DetailRow label="Type">{projectTypeLabel(job.projectType)}</DetailRow>
              <DetailRow label="Deadline">{formatDate(job.deadline)}</DetailRow>
              {job.scheduledDate ? (
                <DetailRow label="Scheduled">{formatDate(job.scheduledDate)}</DetailRow>
              ) : null}
            </dl>
          </Section>
        </div>

        <Section title="Survey areas" testId="job-areas">
          {!job.hasFlightPlanData ? (
            <p className="text-sm text-ink-500">No flight plan saved yet.</p>
          ) : !plan ? (
            <p className="text-sm text-ink-500">{PARSE_FAILURE_MESSAGE}</p>
          ) : (
            <div className="space-y-3">
              {hydrated ? (
                <div
                  className="h-64 overflow-hidden rounded-lg border border-ink-100 bg-ink-800 sm:h-80"
                  data-testid="job-map"
                >
                  <LoadFallbackBoundary fallback={sketch}>
                    <Suspense fallback={sketch}>
                      <AreasMap tileUrl={tileUrl} areas={areas} />
                    </Suspense>
                  </LoadFallbackBoundary>
                </div>
              ) : (
                sketch
              )}
              <ul className="grid gap-2 sm:grid-cols-2">
                {areas.map((a) => (
                  <li key={a.areaNumber} className="rounded-lg bg-ink-50 px-3 py-2 text-sm">
                    <p className="font-medium">
                      Area {a.areaNumber}: {formatSquareMetres(a.area)}
                    </p>
                    <p className="text-xs text-ink-600">
                      {a.points.length} boundary points{a.flightPattern ? ` · ${a.flightPattern}` : ''}
                      {a.returnToBase ? ` · ${a.returnToBase}` : ''}
                    </p>
                  </li>
                ))}
              </ul>
              {job.requirements ? (
                <p className="text-sm text-ink-700">Requirements: {job.requirements}</p>
              ) : null}
            </div>
          )}
        </Section>

        {job.hasFlightPlanData && plan ? <MissionFiles jobId={job.id} mission={mission} /> : null}

        <div className="grid gap-4 md:grid-cols-2">
          <Section title="Airspace">
            <dl className="divide-y divide-ink-100">
              <DetailRow label="Zone">
                <span className="inline-flex items-center gap-2">
                  {job.airspaceZoneColor ? <ColorDot color={job.airspaceZoneColor} /> : null}
                  {job.airspaceZone ?? 'No controlled airspace'}
                </span>
              </DetailRow>
              <DetailRow label="Aviation fee">{formatRand(job.aviationFee)}</DetailRow>
            </dl>
          </Section>
          <Section title="Land owner form">
            <p className="flex items-center gap-2 text-sm">
              <span
                className={
                  job.landOwnerFormUploaded
                    ? 'badge bg-emerald-100 text-emerald-800'
                    : 'badge bg-amber-100 text-amber-900'
                }
              >
                {job.landOwnerFormUploaded ? 'Uploaded' : 'Required'}
              </span>
              <span className="text-ink-600">
                {job.landOwnerFormUploaded
                  ? 'The signed permission is on file.'
                  : 'Do not fly until the client has uploaded the signed form.'}
              </span>
            </p>
          </Section>
        </div>

        <Section title="Flight media" testId="job-media">
          <div className="mb-3 flex justify-end empty:hidden">
            <MapViewLink projectId={job.id} files={files} />
          </div>
          {job.status === 'completed' ? null : (
            <div className="mb-4 grid gap-4 md:grid-cols-2">
              <UploadWidget
                projectId={job.id}
                category="raw_image"
                multiple
                action={filesAction}
                label="Upload photos"
              />
              <UploadWidget
                projectId={job.id}
                category="raw_video"
                multiple
                action={filesAction}
                label="Upload videos"
              />
            </div>
          )}
          {job.status !== 'completed' && job.hasImages ? (
            <PhotosUploadedForm jobId={job.id} action={action} markedAt={job.photosUploadedAt} />
          ) : null}
          <FileGroups
            files={files}
            deleteAction={filesAction}
            canDelete={(f) =>
              f.uploadedBy === pilotId &&
              job.status !== 'completed' &&
              (PILOT_CATEGORIES as readonly string[]).includes(f.fileCategory)
            }
          />
        </Section>

        <JobCoverage tileUrl={tileUrl} />

        {job.status === 'completed' ? (
          <Section title="Project completed" testId="completion-panel">
            <dl className="divide-y divide-ink-100">
              <DetailRow label="Flight hours">{formatFlightHours(job.flightHours)}</DetailRow>
              <DetailRow label="Completed">{formatDate(job.completedAt)}</DetailRow>
              <DetailRow label="Client notified">
                {job.clientNotifiedAt ? `Yes, ${formatDate(job.clientNotifiedAt)}` : 'No'}
              </DetailRow>
            </dl>
          </Section>
        ) : (
          <Section title="Project progress" testId="progress-panel">
            <p className="mb-3 text-sm text-ink-600">Logged so far: {formatFlightHours(job.flightHours)}</p>
            <ProgressForm projectId={job.id} action={action} />
          </Section>
        )}
      </div>
    </UrlDialog>
  )
}
