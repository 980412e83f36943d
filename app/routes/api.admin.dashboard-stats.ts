import { json } from '@remix-run/node'
import { getAdminStats } from '#app/domain/dashboard/stats.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({ roles: 'admin', GET: () => json(getAdminStats()) })
