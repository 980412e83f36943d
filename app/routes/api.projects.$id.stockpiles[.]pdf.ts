/**
 * GET /api/projects/{id}/stockpiles.pdf — the stockpile inventory (as the CSV) on A4, with
 * totals per material. Project members; others 404.
 */
import {
  stockpileInventory,
  stockpileInventoryPdf,
} from '#app/domain/annotations/stockpile-inventory.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { pdfResponse } from '#app/lib/pdf/pdf-response.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: async ({ user, ids }) => {
    const { bytes, fileName } = await stockpileInventoryPdf(stockpileInventory(user, { projectId: ids.id }))
    return pdfResponse(bytes, fileName)
  },
})
