/** `PUT /api/admin/operator-documents/{id}` (full body) → `{ document }`; `DELETE` → `{ success }` (ADR 113). */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import {
  deleteOperatorDocument,
  updateOperatorDocument,
} from '#app/domain/operator/operator-documents.server.ts'
import { OperatorDocumentSchema } from '#app/domain/operator/schemas.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE') return methodNotAllowed(['PUT', 'DELETE'])
  const admin = await requireApiUser(request, 'admin')
  const id = parseId(params.documentId, 'document id')
  if (request.method === 'DELETE') {
    return withApiErrors(() => {
      deleteOperatorDocument(admin.id, id)
      return json({ success: true })
    })
  }
  const input = await readJsonBody(request, OperatorDocumentSchema)
  return withApiErrors(() => json({ document: updateOperatorDocument(admin.id, id, input) }))
}

export function loader() {
  return methodNotAllowed(['PUT', 'DELETE'])
}
