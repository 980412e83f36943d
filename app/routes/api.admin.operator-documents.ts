/**
 * `GET /api/admin/operator-documents` → `{ documents, expiring, operatorCertified }`;
 * `POST` an OperatorDocument body → 201 `{ document }`.
 */
import { json } from '@remix-run/node'
import {
  createOperatorDocument,
  listExpiringItems,
  listOperatorDocuments,
  loadOperatorStatus,
} from '#app/domain/operator/operator-documents.server.ts'
import { OperatorDocumentSchema } from '#app/domain/operator/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: () =>
    json({
      documents: listOperatorDocuments(),
      expiring: listExpiringItems(),
      operatorCertified: loadOperatorStatus().rocValid,
    }),
  POST: async ({ user, body }) => {
    const input = await body(OperatorDocumentSchema)
    return json({ document: createOperatorDocument(user.id, input) }, { status: 201 })
  },
})
