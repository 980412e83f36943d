/**
 * `/sites/{siteId}/report.pdf?before={projectId}&after={projectId}` — the site report for two
 * surveys of a site, for the site's client or an admin (404 otherwise). POST the
 * same fields as a form, plus `polygons` (a JSON list of GeoJSON Polygons drawn on the Map
 * view), so the report works without JavaScript.
 */
import { requireUser } from '#app/domain/auth/guards.server.ts'
import {
  parseDrawnPolygons,
  SITE_REPORT_MESSAGES,
  siteReportPdf,
} from '#app/domain/sites/site-report.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { asPage, idOrNull, pageId } from '#app/lib/http/page-errors.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'
import { pdfResponse } from '#app/lib/pdf/pdf-response.server.ts'
import type { User } from '#db/schema.ts'

async function report(
  request: Request,
  user: User,
  siteParam: string | undefined,
  fields: {
    before: FormDataEntryValue | null
    after: FormDataEntryValue | null
    polygons?: FormDataEntryValue | null
  },
) {
  const siteId = pageId(siteParam)
  return asPage(async () => {
    const beforeProjectId = idOrNull(fields.before)
    const afterProjectId = idOrNull(fields.after)
    if (!beforeProjectId || !afterProjectId) throw new DomainError(400, SITE_REPORT_MESSAGES.surveys)
    const polygons = typeof fields.polygons === 'string' ? fields.polygons : null
    if (fields.polygons != null && polygons === null)
      throw new DomainError(400, SITE_REPORT_MESSAGES.polygons)
    const { bytes, fileName } = await siteReportPdf(user, siteId, {
      beforeProjectId,
      afterProjectId,
      drawn: parseDrawnPolygons(polygons),
      signal: request.signal,
    })
    return pdfResponse(bytes, fileName)
  })
}

export const { loader, action } = resourceRoute({
  GET: async ({ request, params }) => {
    const user = await requireUser(request)
    const query = new URL(request.url).searchParams
    return report(request, user, params.siteId, { before: query.get('before'), after: query.get('after') })
  },
  POST: async ({ request, params }) => {
    const user = await requireUser(request)
    const form = await readFormBody(request)
    return report(request, user, params.siteId, {
      before: form.get('before'),
      after: form.get('after'),
      polygons: form.get('polygons'),
    })
  },
})
