/**
 * The pilot's forms on /dashboard ('Save Project Progress', 'Photo upload finished'); the
 * /api route calls the same progress service. Failures answer with the product's toast ('Error Saving Progress').
 */
import { parseWithZod } from '@conform-to/zod'
import { projectCoverage } from '#app/domain/coverage/coverage.server.ts'
import { listProjectFiles } from '#app/domain/files/file-queries.server.ts'
import {
  listAssignedProjects,
  listFlightLogs,
  markPhotosUploaded,
  saveProgress,
} from '#app/domain/pilot/pilot-projects.server.ts'
import {
  FlightDurationFormSchema,
  flightHoursOf,
  formatFlightHours,
  PROGRESS_MESSAGES,
} from '#app/domain/pilot/schemas.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { missionFormatForDrone } from '#app/domain/survey/mission-files.ts'
import { surveyPlanOf } from '#app/domain/survey/project-plan.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { idOrNull } from '#app/lib/http/page-errors.server.ts'
import { jsonWithErrorToast, redirectWithToast } from '#app/lib/http/toast.server.ts'
import { dashboardIntents } from '#app/routes/_helpers/dashboard-intents.server.ts'
import type { User } from '#db/schema.ts'

export const pilotIntents = dashboardIntents('pilot', 'Only pilots can save progress', {
  'save-progress': saveProjectProgress,
  'photos-uploaded': photosUploaded,
})

/** 'Save Project Progress' on a job: the flight time logged, back to the job. */
async function saveProjectProgress(user: User, formData: FormData) {
  const failed = (status: number, result: unknown, description: string) =>
    jsonWithErrorToast({ intent: 'save-progress', result }, status, {
      title: PROGRESS_MESSAGES.errorTitle,
      description,
    })
  const submission = parseWithZod(formData, { schema: FlightDurationFormSchema })
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {}).flat()[0]
    return failed(400, submission.reply(), first ?? PROGRESS_MESSAGES.failed)
  }
  const hours = flightHoursOf(submission.value)
  try {
    saveProgress(user.id, submission.value.projectId, hours)
  } catch (error) {
    if (!isDomainError(error)) throw error
    return failed(error.status, submission.reply({ formErrors: [error.message] }), error.message)
  }
  // Post/redirect/get: the job reloads with the new total and the toast shows with or without JavaScript.
  return redirectWithToast(`/dashboard?project=${submission.value.projectId}`, {
    title: PROGRESS_MESSAGES.saved,
    description: `${formatFlightHours(hours)} logged.`,
  })
}

/** 'Photo upload finished' on a job: noted, and processing starts when the admin's setting says so. */
async function photosUploaded(user: User, formData: FormData) {
  const projectId = idOrNull(formData.get('projectId'))
  const back = `/dashboard?project=${projectId ?? ''}`
  try {
    const { processingJob } = await markPhotosUploaded(user.id, projectId ?? 0)
    return redirectWithToast(back, {
      title: PROGRESS_MESSAGES.photosMarked,
      description: processingJob ? PROGRESS_MESSAGES.processingStarted : PROGRESS_MESSAGES.photosMarkedText,
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    return jsonWithErrorToast({ intent: 'photos-uploaded', error: error.message }, error.status, {
      description: error.message,
    })
  }
}

/** The drone the job is planned for and the mission file it flies from. */
function jobMission(pilotId: number, projectId: number) {
  let plan
  try {
    plan = surveyPlanOf(requireVisibleProject({ id: pilotId, role: 'pilot' }, projectId))
  } catch (error) {
    // A plan that cannot be made (e.g. a grid too fine) must not take the job card down.
    if (isDomainError(error)) return null
    throw error
  }
  if (!plan) return null
  const droneName = plan.settings.drone.name
  return { droneName, format: missionFormatForDrone(droneName) }
}

/** What the pilot dashboard shows: the assigned jobs (one opened by `?project=`) and the flight logs. */
export async function loadPilotTabs(pilotId: number, url: URL) {
  const projects = listAssignedProjects(pilotId)
  const wanted = Number(url.searchParams.get('project'))
  const openProjectId = projects.some((p) => p.id === wanted) ? wanted : null
  return {
    projects,
    /** The job the dialog shows: its files (the pilot's uploads, documents; deliverables once completed) and its drone and mission file. */
    openJob: openProjectId
      ? {
          id: openProjectId,
          files: listProjectFiles({ id: pilotId, role: 'pilot' }, openProjectId),
          mission: jobMission(pilotId, openProjectId),
        }
      : null,
    /** The open job's coverage check (photo positions over the areas). */
    openProjectCoverage: openProjectId
      ? await projectCoverage({ id: pilotId, role: 'pilot' }, openProjectId)
      : null,
    flightLogs: url.searchParams.get('tab') === 'flight-logs' ? listFlightLogs(pilotId) : [],
    tileUrl: getEnv().TILE_URL,
  }
}
