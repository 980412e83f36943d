/**
 * GET /api/projects/{id}/deliverables/{fileId}/volume-report.pdf?annotationIds=1,2[&againstFileId=]
 * — the volume report for polygon notes on this elevation model (against an earlier survey's
 * model when `againstFileId` is given). Whoever may read the project's deliverables; JSON
 * errors as every /api call (404 for another project's file or note, 400 for a bad list).
 */
import { readVolumeReportQuery, volumeReportPdf } from '#app/domain/annotations/volume-report.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { pdfResponse } from '#app/lib/pdf/pdf-response.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', fileId: 'file id' },
  GET: async ({ request, user, ids }) => {
    const query = readVolumeReportQuery(new URL(request.url).searchParams)
    const { bytes, fileName } = await volumeReportPdf(user, ids.id, ids.fileId, {
      ...query,
      signal: request.signal,
    })
    return pdfResponse(bytes, fileName)
  },
})
