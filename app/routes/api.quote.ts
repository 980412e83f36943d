/**
 * POST /api/quote (signed in): `{ areas }` → the quote (the API "Quote and airspace").
 * Computes only; nothing is stored. The internal split is not sent to clients.
 */
import { json } from '@remix-run/node'
import { QuoteRequestSchema } from '#app/domain/geometry/areas.ts'
import { enforceCalculatorLimit } from '#app/domain/pricing/api-limits.server.ts'
import { quoteForValidatedAreas } from '#app/domain/pricing/quote.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  POST: async ({ user, body }) => {
    await enforceCalculatorLimit(user.id)
    const { areas } = await body(QuoteRequestSchema)
    return json(quoteForValidatedAreas(areas).quote, { headers: { 'Cache-Control': 'no-store' } })
  },
})
