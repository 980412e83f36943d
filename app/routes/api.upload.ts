/**
 * POST /api/upload (multipart: file, projectId, optional category, `directory` ignored:
 * every file is private). The client's documents for their own project:
 * land_owner_agreement or project_document. Answers 201 with the file and its url.
 */
import { json } from '@remix-run/node'
import { receiveMultipartUpload } from '#app/domain/files/multipart.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  POST: async ({ request, user }) => {
    const { file } = await receiveMultipartUpload(request, user, { defaultCategory: 'project_document' })
    return json({ success: true, url: file.fileUrl, file }, { status: 201 })
  },
})
