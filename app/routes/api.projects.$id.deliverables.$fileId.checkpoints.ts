/**
 * POST /api/projects/{id}/deliverables/{fileId}/checkpoints `{ crs: "EPSG:…", csv: "id,easting,northing,elevation\n…" }`
 * (admin) → `{ deliverable }` with `checkpoints`: each point's dz (model − surveyed), the vertical RMSE, mean
 * error, the ASPRS 2024 vertical class met and a warning below 30 checkpoints; `map_easting,map_northing`
 * columns (the target as seen on the orthomosaic) add the horizontal RMSE.
 */
import { json } from '@remix-run/node'
import { checkDeliverable } from '#app/domain/deliverables/checkpoints.server.ts'
import { CheckpointsSchema } from '#app/domain/deliverables/schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  params: { id: 'project id', fileId: 'file id' },
  POST: async ({ request, user, ids, body }) =>
    json({
      deliverable: await checkDeliverable(user, ids.id, ids.fileId, await body(CheckpointsSchema), {
        signal: request.signal,
      }),
    }),
})
