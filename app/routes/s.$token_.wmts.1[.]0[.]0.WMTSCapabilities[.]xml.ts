/**
 * GET /s/{token}/wmts/1.0.0/WMTSCapabilities.xml — the link's rasters as a WMTS service
 * (GoogleMapsCompatible) that QGIS and ArcGIS open as they are; the tiles are the link's XYZ tiles.
 */
import { shareRoute } from '#app/domain/sharing/share-access.server.ts'
import { sharedWmtsCapabilities } from '#app/domain/sharing/share-tiles.server.ts'
import { appUrl } from '#app/lib/config/env.server.ts'

export const { loader, action } = shareRoute((share, { params }) => {
  const xml = sharedWmtsCapabilities(share, `${appUrl()}/s/${params.token}/tiles`)
  return new Response(xml, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'private, no-cache' },
  })
})
