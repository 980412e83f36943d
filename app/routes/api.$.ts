import { apiError } from '#app/lib/http/api.server.ts'

/** Unknown /api paths answer JSON (the API error shape), not the HTML 404 page. */
function notFound() {
  return apiError(404, 'Not found')
}

export const loader = notFound
export const action = notFound
