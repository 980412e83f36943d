/** `PUT /api/admin/operator-documents/{id}` (full body) → `{ document }`; `DELETE` → `{ success }` (ADR 113). */
import { adminRecordRoute } from '#app/domain/admin/record-routes.server.ts'
import {
  deleteOperatorDocument,
  updateOperatorDocument,
} from '#app/domain/operator/operator-documents.server.ts'
import { OperatorDocumentSchema } from '#app/domain/operator/schemas.ts'

export const { action, loader } = adminRecordRoute({
  param: 'documentId',
  write: {
    schema: OperatorDocumentSchema,
    save: (adminId, id, input) => ({ document: updateOperatorDocument(adminId, id, input) }),
  },
  remove: deleteOperatorDocument,
})
