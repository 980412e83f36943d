/**
 * GET /sites/{siteId}/stockpiles.csv — the site's stockpile inventory: each stockpile on each
 * survey (name, material, base, net volume m³, density, tonnes, survey date) and a total line
 * per material and survey. The site's client and admins; others 404.
 */
import {
  stockpileInventory,
  stockpileInventoryCsv,
} from '#app/domain/annotations/stockpile-inventory.server.ts'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { csvResponse } from '#app/domain/files/download.server.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'

export const { loader, action } = resourceRoute({
  GET: async ({ request, params }) => {
    const user = await requireUser(request)
    const inventory = await asPage(() => stockpileInventory(user, { siteId: pageId(params.siteId) }))
    return csvResponse(stockpileInventoryCsv(inventory), `${inventory.fileName}.csv`)
  },
})
