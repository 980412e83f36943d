/**
 * GET /api/client/project-files/{projectId}: the files of the client's own project
 * (deliverables once the project is completed). DELETE /api/client/project-files/{fileId}:
 * a document the client uploaded themselves. Anything else is 404.
 */
import { json } from '@remix-run/node'
import { listProjectFiles } from '#app/domain/files/file-queries.server.ts'
import { deleteProjectFile } from '#app/domain/files/project-files.server.ts'
import { FILE_MESSAGES } from '#app/domain/files/rules.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  params: { id: 'id' },
  GET: ({ user, ids }) => json(listProjectFiles(user, ids.id)),
  DELETE: async ({ user, ids }) => {
    const file = await deleteProjectFile(user, ids.id)
    const message =
      file.fileCategory === 'land_owner_agreement' ? FILE_MESSAGES.landOwnerDeleted : FILE_MESSAGES.deleted
    return json({ success: true, message })
  },
})
