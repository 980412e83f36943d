/**
 * GET /api/projects/{id}/deliverables/{fileId}/volume-report.pdf?annotationIds=1,2[&againstFileId=]
 * — the volume report for polygon notes on this elevation model (against an earlier survey's
 * model when `againstFileId` is given). Whoever may read the project's deliverables; JSON
 * errors as every /api call (404 for another project's file or note, 400 for a bad list).
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { parseAnnotationIds, volumeReportPdf } from '#app/domain/deliverables/volume-report.server.ts'
import { parseId, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const projectId = parseId(params.id, 'project id')
    const fileId = parseId(params.fileId, 'file id')
    const query = new URL(request.url).searchParams
    const against = query.get('againstFileId')
    const { bytes, fileName } = await volumeReportPdf(user, projectId, fileId, {
      annotationIds: parseAnnotationIds(query.getAll('annotationIds')),
      againstFileId: against ? parseId(against, 'againstFileId') : null,
      signal: request.signal,
    })
    return new Response(Buffer.from(bytes), {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    })
  })
}
