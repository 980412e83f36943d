/** `PUT /api/admin/operator-documents/{id}` (full body) → `{ document }`; `DELETE` → `{ success }`. */
import { json } from '@remix-run/node'
import {
  deleteOperatorDocument,
  updateOperatorDocument,
} from '#app/domain/operator/operator-documents.server.ts'
import { OperatorDocumentSchema } from '#app/domain/operator/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { documentId: 'document id' },
  PUT: async ({ user, ids, body }) => {
    const input = await body(OperatorDocumentSchema)
    return json({ document: updateOperatorDocument(user.id, ids.documentId, input) })
  },
  DELETE: ({ user, ids }) => {
    deleteOperatorDocument(user.id, ids.documentId)
    return json({ success: true })
  },
})
