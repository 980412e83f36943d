/**
 * GET /api/download-file/{id}?filename=…: the stored file as an attachment (streamed,
 * ETag, byte ranges), for the owning client, the assigned pilot and admins; 404 for
 * everyone else. A client's deliverables stop one month after completion (410).
 */
import { sendFile } from '#app/domain/files/download.server.ts'
import { getDownloadableFile } from '#app/domain/files/file-queries.server.ts'
import { downloadNameOf } from '#app/domain/files/survey-dates.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'id' },
  GET: ({ request, user, ids }) => {
    const { file, project, path } = getDownloadableFile(user, ids.id)
    const name = new URL(request.url).searchParams.get('filename')?.trim() || file.originalName
    return sendFile(request, {
      path,
      size: file.fileSize,
      mime: file.fileType,
      sha256: file.sha256,
      // A repeat's file carries its survey date (the pages' links ask for the plain name).
      downloadName: downloadNameOf(name, project),
      lastModified: file.createdAt,
    })
  },
})
