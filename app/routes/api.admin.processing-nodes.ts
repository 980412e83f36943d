// GET /api/admin/processing-nodes → { nodes } (no tokens); POST { label, url, token? } → 201 { node }.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { createNode, listNodes, NodeCreateSchema, toNodeView } from '#app/domain/processing/nodes.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json({ nodes: listNodes().map(toNodeView) }, { headers: { 'Cache-Control': 'private, no-store' } })
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST'])
  const admin = await requireApiUser(request, 'admin')
  const input = await readJsonBody(request, NodeCreateSchema)
  return withApiErrors(() => json({ node: toNodeView(createNode(admin.id, input)) }, { status: 201 }))
}
