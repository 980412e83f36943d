// GET /api/admin/processing-nodes → { nodes } (no tokens, URLs redacted); POST { label, url, token? } → 201 { node },
// checked at once: online with engineVersion, or offline with lastError (an unreachable node is kept).
import { json } from '@remix-run/node'
import { addNode, listNodes, NodeCreateSchema, toNodeView } from '#app/domain/processing/nodes.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: () =>
    json({ nodes: listNodes().map(toNodeView) }, { headers: { 'Cache-Control': 'private, no-store' } }),
  POST: async ({ user, body }) => {
    const input = await body(NodeCreateSchema)
    return json({ node: toNodeView(await addNode(user.id, input)) }, { status: 201 })
  },
})
