/**
 * POST /api/admin/upload-project-file (multipart: file, projectId, category; default
 * processed_deliverable). Admin only; any project and category.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { receiveMultipartUpload } from '#app/domain/files/multipart.server.ts'
import { methodNotAllowed, withApiErrors } from '#app/domain/http/api.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  return withApiErrors(async () => {
    const admin = await requireApiUser(request, 'admin')
    const { file } = await receiveMultipartUpload(request, admin, {
      defaultCategory: 'processed_deliverable',
    })
    return json({ success: true, url: file.fileUrl, file }, { status: 201 })
  })
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['POST'])
