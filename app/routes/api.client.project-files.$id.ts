/**
 * GET /api/client/project-files/{projectId}: the files of the client's own project
 * (deliverables once the project is completed). DELETE /api/client/project-files/{fileId}:
 * a document the client uploaded themselves. Anything else is 404.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { listProjectFiles } from '#app/domain/files/file-queries.server.ts'
import { deleteProjectFile } from '#app/domain/files/project-files.server.ts'
import { FILE_MESSAGES } from '#app/domain/files/rules.ts'
import { methodNotAllowed, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request, 'client')
    return json(listProjectFiles(user, Number(params.id)))
  })
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return methodNotAllowed(['GET', 'DELETE'])
  return withApiErrors(async () => {
    const user = await requireApiUser(request, 'client')
    const file = await deleteProjectFile(user, Number(params.id))
    const message =
      file.fileCategory === 'land_owner_agreement' ? FILE_MESSAGES.landOwnerDeleted : FILE_MESSAGES.deleted
    return json({ success: true, message })
  })
}
