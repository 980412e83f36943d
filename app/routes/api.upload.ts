/**
 * POST /api/upload (multipart: file, projectId, optional category, `directory` ignored:
 * every file is private). The client's documents for their own project:
 * land_owner_agreement or project_document. Answers 201 with the file and its url.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { receiveMultipartUpload } from '#app/domain/files/multipart.server.ts'
import { methodNotAllowed, withApiErrors } from '#app/domain/http/api.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const { file } = await receiveMultipartUpload(request, user, { defaultCategory: 'project_document' })
    return json({ success: true, url: file.fileUrl, file }, { status: 201 })
  })
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['POST'])
