/**
 * GET /s/{token}/files/{fileId}/accuracy.pdf — a shared elevation model's one-page accuracy report
 * (view-only links too: the share page shows the same figures). 404 for a file the link doesn't
 * share or one without a checkpoint report, 410 once revoked or expired.
 */
import { accuracyReportPdf } from '#app/domain/deliverables/accuracy-pdf.server.ts'
import { sharedFile, shareRoute } from '#app/domain/sharing/share-access.server.ts'
import { sharedDeliverable } from '#app/domain/sharing/share-viewer.server.ts'
import { pdfResponse } from '#app/lib/pdf/pdf-response.server.ts'

export const { loader, action } = shareRoute(async (share, { params }) => {
  const { bytes, fileName } = await accuracyReportPdf(
    share.project,
    sharedDeliverable(share, sharedFile(share, params.fileId)),
  )
  return pdfResponse(bytes, fileName)
})
