/**
 * POST /api/admin/upload-project-file (multipart: file, projectId, category; default
 * processed_deliverable). Admin only; any project and category.
 */
import { json } from '@remix-run/node'
import { receiveMultipartUpload } from '#app/domain/files/multipart.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  POST: async ({ request, user }) => {
    const { file } = await receiveMultipartUpload(request, user, {
      defaultCategory: 'processed_deliverable',
    })
    return json({ success: true, url: file.fileUrl, file }, { status: 201 })
  },
})
