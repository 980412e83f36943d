/**
 * GET /s/{token}/tiles/{fileId}/{z}/{x}/{y}.png — XYZ tiles (Web Mercator, 256 px) of a shared
 * orthomosaic or elevation model (coloured) for QGIS, ArcGIS or CAD; a view-only link's are cut
 * from its reduced copy. 204 where the tile misses the raster; 410 once the link is revoked.
 */
import { sharedFile, shareRoute } from '#app/domain/sharing/share-access.server.ts'
import { sharedTileResponse } from '#app/domain/sharing/share-tiles.server.ts'
import { parseTileAddress } from '#app/domain/sharing/xyz-tiles.server.ts'

export const { loader, action } = shareRoute((share, { request, params }) =>
  sharedTileResponse(
    share,
    sharedFile(share, params.fileId),
    parseTileAddress(params.z, params.x, params.y),
    request.signal,
  ),
)
