/**
 * GET /api/projects/{id}/3d-still — the 3D view's still image (shown without JavaScript);
 * POST (a PNG body, at most 2 MB) — the first signed-in browser that drew the view leaves it.
 * Who may see the project's deliverables (else 404).
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { sendViewFile } from '#app/domain/deliverables/view-files.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'
import { loadThreeDView, saveStill, stillFileOf } from '#app/domain/threed/three-d-view.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const view = loadThreeDView(user, parseId(params.id, 'project id'))
    return sendViewFile(request, stillFileOf(view))
  })
}

export async function action({ request, params }: ActionFunctionArgs) {
  return withApiErrors(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST'])
    const user = await requireApiUser(request)
    const view = loadThreeDView(user, parseId(params.id, 'project id'))
    const { saved } = await saveStill(view, request.body)
    return json({ saved }, { status: saved ? 201 : 200 })
  })
}
