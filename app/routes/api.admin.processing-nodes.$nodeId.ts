// PUT /api/admin/processing-nodes/{id} { label?, url?, token?, enabled? } → { node }; DELETE → 204 (409 while a job runs on it).
import { json } from '@remix-run/node'
import { deleteNode, NodeUpdateSchema, toNodeView, updateNode } from '#app/domain/processing/nodes.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { nodeId: 'node id' },
  PUT: async ({ user, ids, body }) => {
    const input = await body(NodeUpdateSchema, { partial: true })
    return json({ node: toNodeView(updateNode(user.id, ids.nodeId, input)) })
  },
  DELETE: ({ user, ids }) => {
    deleteNode(user.id, ids.nodeId)
    return new Response(null, { status: 204 })
  },
})
