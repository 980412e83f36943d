/**
 * GET /api/projects/{id}/deliverables/{fileId}/accuracy.pdf — the one-page accuracy report of an
 * elevation model's checkpoints, for whoever may read the deliverable; 404 without a report.
 */
import { accuracyReportPdf } from '#app/domain/deliverables/accuracy-pdf.server.ts'
import { getDeliverable } from '#app/domain/deliverables/deliverables.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { pdfResponse } from '#app/lib/pdf/pdf-response.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', fileId: 'file id' },
  GET: async ({ user, ids }) => {
    const project = requireVisibleProject(user, ids.id)
    const { bytes, fileName } = await accuracyReportPdf(project, getDeliverable(user, ids.id, ids.fileId))
    return pdfResponse(bytes, fileName)
  },
})
