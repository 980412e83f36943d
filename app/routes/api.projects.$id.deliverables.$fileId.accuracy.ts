/**
 * PUT /api/projects/{id}/deliverables/{fileId}/accuracy `{ horizontalRmseM, verticalRmseM,
 * gcpCount, checkpointCount }` → `{ deliverable }`: an admin states a deliverable's accuracy;
 * DELETE removes it ("accuracy not stated"). 400 with field errors for bad values, 404 for a
 * file of another project.
 */
import { json } from '@remix-run/node'
import { setDeliverableAccuracy } from '#app/domain/deliverables/deliverables.server.ts'
import { DeliverableAccuracySchema } from '#app/domain/deliverables/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { id: 'project id', fileId: 'file id' },
  PUT: async ({ user, ids, body }) =>
    json({
      deliverable: setDeliverableAccuracy(user, ids.id, ids.fileId, await body(DeliverableAccuracySchema)),
    }),
  DELETE: ({ user, ids }) => json({ deliverable: setDeliverableAccuracy(user, ids.id, ids.fileId, null) }),
})
