/**
 * GET /api/projects/{id}/design-surfaces → `{ designSurfaces }` (whoever sees the project's
 * deliverables). POST (admin, multipart `file` + `name`, optional `crs` "EPSG:…"): a LandXML TIN,
 * a GeoTIFF design model or a DXF of 3D faces → 201 `{ designSurface }` with its outline (WGS84).
 */
import { json } from '@remix-run/node'
import { createDesignSurface, listDesignSurfaces } from '#app/domain/design/design-surfaces.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ user, ids }) =>
    json(
      { designSurfaces: listDesignSurfaces(user, ids.id) },
      { headers: { 'Cache-Control': 'private, no-store' } },
    ),
  POST: {
    roles: 'admin',
    run: async ({ request, user, ids }) =>
      json({ designSurface: await createDesignSurface(user, ids.id, request) }, { status: 201 }),
  },
})
