/**
 * GET /api/projects/{id}/3d-still — the 3D view's still image (shown without JavaScript);
 * POST (a PNG body, at most 2 MB) — the first browser of the project's owner or an admin that
 * drew the view leaves it (anyone else: 403).
 * Who may see the project's deliverables (else 404).
 */
import { json } from '@remix-run/node'
import { loadThreeDView, saveStill, stillFileOf } from '#app/domain/deliverables/three-d-view.server.ts'
import { sendViewFile } from '#app/domain/deliverables/view-files.server.ts'
import { MAX_STILL_BYTES } from '#app/domain/threed/three-d.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { readBytesWithin } from '#app/lib/http/body-limit.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: async ({ request, user, ids }) =>
    sendViewFile(request, stillFileOf(await loadThreeDView(user, ids.id))),
  POST: async ({ request, user, ids }) => {
    const view = await loadThreeDView(user, ids.id)
    const { saved } = await saveStill(view, await readBytesWithin(request, MAX_STILL_BYTES))
    return json({ saved }, { status: saved ? 201 : 200 })
  },
})
