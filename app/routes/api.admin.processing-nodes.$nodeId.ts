// PUT /api/admin/processing-nodes/{id} { label?, url?, token?, enabled? } → { node }; DELETE → 204 (409 while a job runs on it).
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import {
  assertSomethingToUpdate,
  methodNotAllowed,
  parseId,
  readJsonBody,
  withApiErrors,
} from '#app/domain/http/api.server.ts'
import { deleteNode, NodeUpdateSchema, toNodeView, updateNode } from '#app/domain/processing/nodes.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE') return methodNotAllowed(['PUT', 'DELETE'])
  const admin = await requireApiUser(request, 'admin')
  const id = parseId(params.nodeId, 'node id')
  if (request.method === 'DELETE') {
    return withApiErrors(() => {
      deleteNode(admin.id, id)
      return new Response(null, { status: 204 })
    })
  }
  const input = await readJsonBody(request, NodeUpdateSchema)
  assertSomethingToUpdate(input)
  return withApiErrors(() => json({ node: toNodeView(updateNode(admin.id, id, input)) }))
}

export const loader = () => methodNotAllowed(['PUT', 'DELETE'])
