/**
 * The admin's project dialog (/admin/projects/:projectId): what it shows (details,
 * pricing, flight plan, coverage, files, retention, the active pilots) and its two forms
 * — saving status/pilot/message, and keeping a completed project's files (ADR 160).
 */
import { parseWithZod } from '@conform-to/zod'
import {
  getProjectForAdmin,
  INVALID_PILOT_MESSAGE,
  saveProjectChanges,
} from '#app/domain/admin/admin-projects.server.ts'
import { ProjectSaveSchema } from '#app/domain/admin/schemas.ts'
import { listActivePilots } from '#app/domain/admin/users.server.ts'
import { projectCoverage } from '#app/domain/coverage/coverage.server.ts'
import {
  KEEP_FILES_MESSAGES,
  keepProjectFiles,
  retentionStateOf,
} from '#app/domain/files/retention.server.ts'
import { KeepFilesSchema } from '#app/domain/files/retention.ts'
import { statusBadge } from '#app/domain/projects/status.ts'
import { sharePanelData } from '#app/domain/sharing/share-panel.server.ts'
import { fullName } from '#app/domain/users/person-name.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { asPage } from '#app/lib/http/page-errors.server.ts'
import { jsonWithErrorToast, redirectWithToast } from '#app/lib/http/toast.server.ts'
import type { User } from '#db/schema.ts'

/** The project with its client, pilot, files and flight plan (its id from `pageId`); a 404 page when there is none. */
export function loadAdminProject(id: number) {
  return asPage(() => getProjectForAdmin(id))
}

/** Everything the dialog shows. */
export async function adminProjectDialog(admin: Pick<User, 'id' | 'role'>, projectId: number) {
  const details = await loadAdminProject(projectId)
  const coverage = await projectCoverage(admin, details.project.id)
  const pilots = listActivePilots().map((p) => ({
    id: p.id,
    name: fullName(p),
    serviceArea: p.serviceArea,
  }))
  const retention = details.project.completedAt ? retentionStateOf(details.project) : null
  const share = sharePanelData(admin, details.project.id)
  return { ...details, pilots, retention, coverage, share, tileUrl: getEnv().TILE_URL }
}
export type AdminProjectDialog = Awaited<ReturnType<typeof adminProjectDialog>>

/** The 'Keep files' form: its own result key, so the project form keeps its state. */
export async function keepFilesForm(adminId: number, projectId: number, formData: FormData, here: string) {
  const submission = parseWithZod(formData, { schema: KeepFilesSchema })
  const fail = (status: number, description: string, reply = submission.reply()) =>
    jsonWithErrorToast({ keepResult: reply }, status, { title: 'Files not kept', description })
  if (submission.status !== 'success') return fail(400, 'Check the date and the reason.')
  try {
    const saved = keepProjectFiles(adminId, projectId, submission.value)
    return redirectWithToast(here, {
      title: KEEP_FILES_MESSAGES.saved,
      description: `The files are available until ${formatDate(saved.filesKeptUntil!)}.`,
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    return fail(
      error.status,
      error.message,
      submission.reply({
        fieldErrors: error.fieldErrors,
        formErrors: error.fieldErrors ? [] : [error.message],
      }),
    )
  }
}

const SAVE_FAILED = { title: 'Error Saving', description: 'Failed to save changes' }

/**
 * The project form: status, pilot and an optional message to the client. Success goes
 * back to the projects list (`back`) with a toast saying what happened.
 */
export async function saveProjectForm(adminId: number, projectId: number, formData: FormData, back: string) {
  const submission = parseWithZod(formData, { schema: ProjectSaveSchema })
  if (submission.status !== 'success') {
    return jsonWithErrorToast({ result: submission.reply() }, 400, SAVE_FAILED)
  }
  try {
    const {
      statusChanged,
      pilotChanged,
      project: saved,
    } = await saveProjectChanges(adminId, projectId, submission.value)
    if (pilotChanged) {
      return redirectWithToast(back, {
        title: 'Pilot Assigned & Emails Sent',
        description: `The job card went to the pilot and the client was notified about "${saved.name}".`,
      })
    }
    if (statusChanged || submission.value.statusMessage) {
      return redirectWithToast(
        back,
        submission.value.statusMessage
          ? {
              title: 'Project Updated & Client Notified',
              description: `"${saved.name}" is now ${statusBadge(saved.status).label}.`,
            }
          : {
              title: 'Project Updated',
              description: `"${saved.name}" is now ${statusBadge(saved.status).label}.`,
            },
      )
    }
    return redirectWithToast(back, { type: 'info', title: 'No Changes', description: 'Nothing was changed.' })
  } catch (error) {
    if (isDomainError(error) && error.message === INVALID_PILOT_MESSAGE) {
      const result = submission.reply({ fieldErrors: { pilotId: [error.message] } })
      return jsonWithErrorToast({ result }, 400, { title: SAVE_FAILED.title, description: error.message })
    }
    if (isDomainError(error)) {
      const result = submission.reply({ fieldErrors: error.fieldErrors ?? {}, formErrors: [error.message] })
      return jsonWithErrorToast({ result }, error.status, {
        title: 'Pilot not assigned',
        description: error.message,
      })
    }
    console.error('[admin] saving project failed', error)
    const result = submission.reply({ formErrors: ['Error Saving: Failed to save changes'] })
    return jsonWithErrorToast({ result }, 500, SAVE_FAILED)
  }
}
