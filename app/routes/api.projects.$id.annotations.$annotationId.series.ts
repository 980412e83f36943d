/**
 * GET /api/projects/{id}/annotations/{annotationId}/series — a stockpile (or pit) note's
 * volume on every survey of its site with an elevation model → `{ points }`; `?format=csv`
 * → the series as a CSV file. The site's client and admins; others 404.
 */
import { json } from '@remix-run/node'
import { stockpileCsv, stockpileSeries } from '#app/domain/annotations/stockpile-series.server.ts'
import { csvResponse } from '#app/domain/files/download.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id', annotationId: 'note id' },
  GET: async ({ request, user, ids }) => {
    const series = await stockpileSeries(user, ids.id, ids.annotationId, { signal: request.signal })
    if (new URL(request.url).searchParams.get('format') === 'csv')
      return csvResponse(stockpileCsv(series.points), `stockpile-${ids.annotationId}-series.csv`)
    return json(series, { headers: { 'Cache-Control': 'private, no-store' } })
  },
})
