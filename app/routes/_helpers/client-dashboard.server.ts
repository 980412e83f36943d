/**
 * The client's project forms on /dashboard (Create Project, delete a draft). The route
 * hands them over by `intent`; the /api routes call the same services.
 */
import { parseWithZod } from '@conform-to/zod'
import { json } from '@remix-run/node'
import { toProjectCard } from '#app/domain/dashboard/project-card.server.ts'
import type { Deliverable } from '#app/domain/deliverables/deliverable.ts'
import { listDeliverables } from '#app/domain/deliverables/deliverables.server.ts'
import { listFilesOfProjects } from '#app/domain/files/file-queries.server.ts'
import { searchPlaces } from '#app/domain/places/places.server.ts'
import { latestProcessingOf } from '#app/domain/processing/jobs.server.ts'
import { CreateProjectFormSchema } from '#app/domain/projects/project-schemas.ts'
import {
  createDraft,
  DELETE_DRAFT_FAILED,
  deleteDraft,
  DRAFT_DELETED,
  listClientProjects,
  projectError,
} from '#app/domain/projects/projects.server.ts'
import { sharePanelsOfClient } from '#app/domain/sharing/share-panel.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { idOrNull } from '#app/lib/http/page-errors.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'
import { dashboardIntents } from '#app/routes/_helpers/dashboard-intents.server.ts'

export const clientProjectIntents = dashboardIntents('client', 'Only clients can manage projects', {
  'create-project': async (user, formData) => {
    const submission = parseWithZod(formData, { schema: CreateProjectFormSchema })
    if (submission.status !== 'success') {
      return json({ intent: 'create-project', result: submission.reply() }, { status: 400 })
    }
    const project = createDraft(user.id, submission.value)
    return redirectWithToast(`/flight-planner?projectId=${project.id}`, {
      title: 'Draft Saved',
      description:
        'Now mark the areas to survey: draw them on the map, paste their coordinates or upload a KML or GeoJSON file.',
      type: 'success',
    })
  },
  'delete-draft': async (user, formData) => {
    const id = idOrNull(formData.get('projectId'))
    try {
      if (id === null) throw projectError(400, DELETE_DRAFT_FAILED)
      deleteDraft(user.id, id)
      return redirectWithToast('/dashboard?tab=projects', { title: DRAFT_DELETED, type: 'success' })
    } catch (error) {
      if (!isDomainError(error)) throw error
      return redirectWithToast('/dashboard?tab=projects', { title: DELETE_DRAFT_FAILED, type: 'error' })
    }
  },
})

/** What the client dashboard's project tabs need, driven by the URL (`?q=` search). */
export function loadClientProjectTabs(clientId: number, url: URL) {
  const q = url.searchParams.get('q')?.trim() ?? ''
  let placeSearch = null
  if (url.searchParams.get('tab') === 'create' && q) {
    const outcome = searchPlaces(q)
    placeSearch = {
      query: q,
      results: outcome.results,
      message: outcome.status === 'empty' ? outcome.message : undefined,
    }
  }
  const rows = listClientProjects(clientId)
  return {
    projects: rows.map(toProjectCard),
    /** Each project's files the client may see (land owner agreement, documents, deliverables). */
    files: listFilesOfProjects({ id: clientId, role: 'client' }, rows),
    /** Completed projects' deliverables with kind, SHA-256 and viewing copy. */
    deliverables: Object.fromEntries(
      rows
        .filter((p) => p.status === 'completed')
        .map((p) => [p.id, listDeliverables({ id: clientId, role: 'client' }, p.id)]),
    ) as Record<number, Deliverable[]>,
    /** The Share panel of each completed project. */
    shares: sharePanelsOfClient({ id: clientId, role: 'client' }, rows),
    /** Each project's latest photogrammetry job (status and progress). */
    processing: latestProcessingOf(rows.map((p) => p.id)),
    placeSearch,
  }
}
