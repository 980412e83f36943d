// GET /api/admin/all-projects?q=&status=&page= — one page, newest first; totals in headers.
import { json } from '@remix-run/node'
import { listAllProjects } from '#app/domain/admin/admin-projects.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { pageParam } from '#app/lib/http/query.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: ({ request }) => {
    const url = new URL(request.url)
    const result = listAllProjects({
      q: url.searchParams.get('q'),
      status: url.searchParams.get('status')?.replace('in-progress', 'in_progress'),
      page: pageParam(url.searchParams.get('page')),
    })
    return json(result.projects, {
      headers: {
        'X-Total-Count': String(result.total),
        'X-Page': String(result.page),
        'X-Page-Count': String(result.pageCount),
      },
    })
  },
})
