/**
 * GET /api/client/projects/{id}/screenshot: the flight-area screenshot stored with the
 * flight plan, as an image, to its owner only (404 when there is none or it is not a
 * valid image).
 */
import { isValidScreenshot, readFlightPlan } from '#app/domain/flight-plan/flight-plan.ts'
import { getClientProject } from '#app/domain/projects/projects.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { apiError } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  params: { id: 'id' },
  GET: ({ request, user, ids: { id } }) => {
    const raw = getClientProject(user.id, id).flightPlan
    const screenshot = readFlightPlan(raw)?.screenshot
    if (!isValidScreenshot(screenshot)) return apiError(404, 'Flight area screenshot unavailable')
    const [, mime, payload] = /^data:(image\/[a-z]+);base64,(.*)$/.exec(screenshot)!
    const download = new URL(request.url).searchParams.has('download')
    return new Response(Buffer.from(payload!, 'base64'), {
      headers: {
        'Content-Type': mime!,
        'Cache-Control': 'private, no-cache',
        ...(download
          ? {
              'Content-Disposition': `attachment; filename="flight-area-${id}.${mime === 'image/png' ? 'png' : 'jpg'}"`,
            }
          : {}),
      },
    })
  },
})
