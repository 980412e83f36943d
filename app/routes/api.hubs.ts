/** GET /api/hubs (signed in): the active hubs, map data for the planner (ADR 171 "API"). */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { listActiveHubs } from '#app/domain/hubs/active-hubs.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request)
  return json(listActiveHubs(), { headers: { 'Cache-Control': 'private, no-cache' } })
}

export function action() {
  return methodNotAllowed(['GET'])
}
