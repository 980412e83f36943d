/**
 * GET /api/projects/{id}/annotations/{annotationId}/series — a stockpile (or pit) note's
 * volume on every survey of its site with an elevation model → `{ points }`; `?format=csv`
 * → the series as a CSV file. The site's client and admins; others 404.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { stockpileCsv, stockpileSeries } from '#app/domain/annotations/stockpile-series.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, withApiErrors } from '#app/domain/http/api.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const projectId = parseId(params.id, 'project id')
    const annotationId = parseId(params.annotationId, 'note id')
    const series = await stockpileSeries(user, projectId, annotationId, { signal: request.signal })
    if (new URL(request.url).searchParams.get('format') === 'csv')
      return new Response(stockpileCsv(series.points), {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="stockpile-${annotationId}-series.csv"`,
          'Cache-Control': 'private, no-store',
        },
      })
    return json(series, { headers: { 'Cache-Control': 'private, no-store' } })
  })
}

export function action() {
  return methodNotAllowed(['GET'])
}
