/**
 * GET /api/projects/{id}/deliverables/{fileId}/cut-fill.png?designSurfaceId=…&tolerance=0.05 → the
 * cut/fill colour map (PNG, WGS84, over the design's extent): cut red, fill blue, clear within
 * ±tolerance metres.
 */
import { cutFillMapPng } from '#app/domain/design/cut-fill-map.server.ts'
import { CutFillMapQuerySchema } from '#app/domain/design/design-schemas.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { readQuery } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', fileId: 'file id' },
  GET: async ({ request, user, ids }) => {
    const query = readQuery(request, CutFillMapQuerySchema)
    const png = await cutFillMapPng(
      user,
      ids.id,
      ids.fileId,
      { designSurfaceId: query.designSurfaceId, toleranceM: query.tolerance },
      { signal: request.signal },
    )
    return new Response(new Uint8Array(png), {
      headers: { 'Content-Type': 'image/png', 'Cache-Control': 'private, no-store' },
    })
  },
})
