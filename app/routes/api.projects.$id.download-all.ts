/**
 * GET /api/projects/{id}/download-all — every deliverable of the project and
 * `checksums.sha256` in one streamed ZIP, for whoever may download them one by one.
 */
import { repeatSurveyDate } from '#app/domain/files/survey-dates.server.ts'
import { zipFileName, zipResponse } from '#app/domain/sharing/deliverables-zip.server.ts'
import { deliverablesForDownloadAll } from '#app/domain/sharing/download-all.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ request, user, ids }) => {
    const { project, files } = deliverablesForDownloadAll(user, ids.id)
    if (request.method === 'HEAD') return new Response(null, { status: 200 })
    // A site's repeat: the ZIP and its entries carry the survey date.
    const surveyDate = repeatSurveyDate(project)
    return zipResponse(files, zipFileName(project.name, project.id, surveyDate), {
      owner: { account: user.id },
      request,
      surveyDate,
    })
  },
})
