/**
 * GET /api/projects/{id}/tiles/{fileId}/{z}/{x}/{y}.png — a signed-in user's XYZ tiles (Web
 * Mercator, 256 px) of an orthomosaic or elevation model (coloured) they may download: the same
 * tiles a share link gives, read with the session. 204 where the tile misses the raster.
 */
import { projectTileResponse } from '#app/domain/sharing/share-tiles.server.ts'
import { parseTileAddress } from '#app/domain/sharing/xyz-tiles.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', fileId: 'file id' },
  GET: ({ request, params, user, ids }) =>
    projectTileResponse(
      user,
      ids.id,
      ids.fileId,
      parseTileAddress(params.z, params.x, params.y),
      request.signal,
    ),
})
