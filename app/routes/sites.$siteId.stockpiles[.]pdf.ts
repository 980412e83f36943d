/**
 * GET /sites/{siteId}/stockpiles.pdf — the site's stockpile inventory (as the CSV) on A4, with
 * totals per material and survey. The site's client and admins; others 404.
 */
import {
  stockpileInventory,
  stockpileInventoryPdf,
} from '#app/domain/annotations/stockpile-inventory.server.ts'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'
import { pdfResponse } from '#app/lib/pdf/pdf-response.server.ts'

export const { loader, action } = resourceRoute({
  GET: async ({ request, params }) => {
    const user = await requireUser(request)
    const inventory = await asPage(() => stockpileInventory(user, { siteId: pageId(params.siteId) }))
    const { bytes, fileName } = await stockpileInventoryPdf(inventory)
    return pdfResponse(bytes, fileName)
  },
})
