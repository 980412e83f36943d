/** GET /api/hubs (signed in): the active hubs, map data for the planner. */
import { json } from '@remix-run/node'
import { listActiveHubs } from '#app/domain/hubs/active-hubs.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  GET: () => json(listActiveHubs(), { headers: { 'Cache-Control': 'private, no-cache' } }),
})
