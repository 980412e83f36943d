// PUT /api/admin/processing-nodes/{id} { label?, url?, token?, enabled? } → { node } (a new URL or token is
// checked at once: online with its engine, or offline with lastError); DELETE → 204 (409 while a job runs on it).
import { json } from '@remix-run/node'
import { deleteNode, editNode, NodeUpdateSchema, toNodeView } from '#app/domain/processing/nodes.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { nodeId: 'node id' },
  PUT: async ({ user, ids, body }) => {
    const input = await body(NodeUpdateSchema, { partial: true })
    return json({ node: toNodeView(await editNode(user.id, ids.nodeId, input)) })
  },
  DELETE: ({ user, ids }) => {
    deleteNode(user.id, ids.nodeId)
    return new Response(null, { status: 204 })
  },
})
