/**
 * GET /api/client/projects/{id}/screenshot: the flight-area screenshot stored with the
 * flight plan, as an image, to its owner only (404 when there is none or it is not a
 * valid image).
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { apiError, domainErrorResponse, methodNotAllowed, parseId } from '#app/domain/http/api.server.ts'
import { isValidScreenshot } from '#app/domain/projects/flight-plan.ts'
import { getClientProject } from '#app/domain/projects/projects.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, 'client')
  const id = parseId(params.id)
  let raw: string | null
  try {
    raw = getClientProject(user.id, id).polygonGeoJson
  } catch (error) {
    return domainErrorResponse(error)
  }
  let screenshot: unknown
  try {
    screenshot = raw ? (JSON.parse(raw) as { screenshot?: unknown }).screenshot : undefined
  } catch {
    screenshot = undefined
  }
  if (!isValidScreenshot(screenshot)) return apiError(404, 'Flight area screenshot unavailable')
  const [, mime, payload] = /^data:(image\/[a-z]+);base64,(.*)$/.exec(screenshot)!
  const url = new URL(request.url)
  const download = url.searchParams.has('download')
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
}

/** Read-only: any other method gets a JSON 405, not an unexpected-server-error page. */
export const action = () => methodNotAllowed(['GET'])
