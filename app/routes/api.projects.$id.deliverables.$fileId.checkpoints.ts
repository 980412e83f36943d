/**
 * POST /api/projects/{id}/deliverables/{fileId}/checkpoints `{ crs: "EPSG:…", csv: "id,easting,northing,elevation\n…" }`
 * (admin) → `{ deliverable }` with `checkpoints`: each point's dz (model − surveyed), the vertical RMSE, mean
 * error, the ASPRS 2024 vertical class met and a warning below 30 checkpoints; `map_easting,map_northing`
 * columns (the target as seen on the orthomosaic) add the horizontal RMSE.
 */
import { json } from '@remix-run/node'
import { checkDeliverable } from '#app/domain/deliverables/checkpoints.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { z } from 'zod'

const CheckpointsSchema = z.object({
  crs: z.string().regex(/^EPSG:\d{4,6}$/, 'The CRS is given as EPSG:code, e.g. EPSG:32734.'),
  csv: z
    .string()
    .min(1, 'Paste the checkpoints as CSV.')
    .max(256 * 1024, 'The CSV is at most 256 KB.'),
})

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
