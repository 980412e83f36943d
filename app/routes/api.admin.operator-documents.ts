/**
 * `GET /api/admin/operator-documents` → `{ documents, expiring, operatorCertified }`;
 * `POST` an OperatorDocument body → 201 `{ document }` (ADR 113).
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import {
  createOperatorDocument,
  listExpiringItems,
  listOperatorDocuments,
  loadOperatorStatus,
} from '#app/domain/operator/operator-documents.server.ts'
import { OperatorDocumentSchema } from '#app/domain/operator/schemas.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json({
    documents: listOperatorDocuments(),
    expiring: listExpiringItems(),
    operatorCertified: loadOperatorStatus().rocValid,
  })
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST'])
  const admin = await requireApiUser(request, 'admin')
  const input = await readJsonBody(request, OperatorDocumentSchema)
  return json({ document: createOperatorDocument(admin.id, input) }, { status: 201 })
}
