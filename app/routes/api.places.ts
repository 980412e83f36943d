/**
 * GET /api/places?q=: the offline South African location search behind the Create
 * Project autocomplete. `{ results: [{ address, lat, lng, kind }], message? }`.
 */
import { json } from '@remix-run/node'
import { searchPlaces } from '#app/domain/places/places.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  GET: ({ request }) => {
    const q = new URL(request.url).searchParams.get('q') ?? ''
    const outcome = searchPlaces(q)
    return json(
      outcome.status === 'ok' ? { results: outcome.results } : { results: [], message: outcome.message },
      { headers: { 'Cache-Control': 'private, max-age=300' } },
    )
  },
})
