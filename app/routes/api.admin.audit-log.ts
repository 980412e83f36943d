import { json } from '@remix-run/node'
import { listAuditLog } from '#app/lib/audit/audit.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { pageParam } from '#app/lib/http/query.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: ({ request }) => {
    const page = pageParam(new URL(request.url).searchParams.get('page'))
    const { entries } = listAuditLog({ page })
    return json(entries)
  },
})
