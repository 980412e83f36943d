/**
 * GET /s/{token}/download-all — the link's deliverables and `checksums.sha256` as one
 * streamed ZIP, when the link allows downloads (403 view-only, 410 gone). Counted
 * and audited as one download.
 */
import { repeatSurveyDate } from '#app/domain/files/survey-dates.server.ts'
import { withBytesOnDisk, zipFileName, zipResponse } from '#app/domain/sharing/deliverables-zip.server.ts'
import { requireDownloadAllowed, shareRoute } from '#app/domain/sharing/share-access.server.ts'
import { recordShareDownload } from '#app/domain/sharing/share-links.server.ts'

export const { loader, action } = shareRoute((share, { request }) => {
  requireDownloadAllowed(share)
  if (request.method === 'HEAD') return new Response(null, { status: 200 })
  const surveyDate = repeatSurveyDate(share.project)
  const zip = zipResponse(
    withBytesOnDisk(share.files),
    zipFileName(share.project.name, share.project.id, surveyDate),
    { owner: { link: share.link.id }, request, surveyDate },
  )
  recordShareDownload(share.link, null)
  return zip
})
