/**
 * GET /api/places?q=: the offline South African location search behind the Create
 * Project autocomplete. `{ results: [{ address, lat, lng, kind }], message? }`.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { searchPlaces } from '#app/domain/places/places.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request)
  const q = new URL(request.url).searchParams.get('q') ?? ''
  const outcome = searchPlaces(q)
  return json(
    outcome.status === 'ok' ? { results: outcome.results } : { results: [], message: outcome.message },
    { headers: { 'Cache-Control': 'private, max-age=300' } },
  )
}

/** Read-only: any other method gets a JSON 405, not an unexpected-server-error page. */
export const action = () => methodNotAllowed(['GET'])
