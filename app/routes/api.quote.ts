/**
 * POST /api/quote (signed in): `{ areas }` → the quote (the API "Quote and airspace").
 * Computes only; nothing is stored. The internal split is not sent to clients.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { QuoteRequestSchema } from '#app/domain/geometry/areas.ts'
import { methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import { enforceCalculatorLimit } from '#app/domain/pricing/api-limits.server.ts'
import { quoteForValidatedAreas } from '#app/domain/pricing/quote.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const user = await requireApiUser(request)
  await enforceCalculatorLimit(user.id)
  const { areas } = await readJsonBody(request, QuoteRequestSchema)
  return json(quoteForValidatedAreas(areas).quote, { headers: { 'Cache-Control': 'no-store' } })
}

export function loader() {
  return methodNotAllowed(['POST'])
}
