// GET /api/admin/processing-nodes → { nodes } (no tokens); POST { label, url, token? } → 201 { node }.
import { json } from '@remix-run/node'
import { createNode, listNodes, NodeCreateSchema, toNodeView } from '#app/domain/processing/nodes.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: () =>
    json({ nodes: listNodes().map(toNodeView) }, { headers: { 'Cache-Control': 'private, no-store' } }),
  POST: async ({ user, body }) => {
    const input = await body(NodeCreateSchema)
    return json({ node: toNodeView(createNode(user.id, input)) }, { status: 201 })
  },
})
