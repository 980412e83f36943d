/**
 * GET /api/projects/{id}/wmts/1.0.0/WMTSCapabilities.xml — the project's orthomosaics and elevation
 * models a signed-in user may see, as a WMTS service (GoogleMapsCompatible) over their XYZ tiles.
 */
import { projectWmtsCapabilities } from '#app/domain/sharing/share-tiles.server.ts'
import { appUrl } from '#app/lib/config/env.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ user, ids }) => {
    const xml = projectWmtsCapabilities(user, ids.id, `${appUrl()}/api/projects/${ids.id}/tiles`)
    return new Response(xml, {
      headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'private, no-cache' },
    })
  },
})
