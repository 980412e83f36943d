import { json } from '@remix-run/node'
import { listSystemSettings } from '#app/domain/admin/system-settings.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({ roles: 'admin', GET: () => json(listSystemSettings()) })
