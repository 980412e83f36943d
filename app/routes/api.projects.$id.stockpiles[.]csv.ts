/**
 * GET /api/projects/{id}/stockpiles.csv — every stockpile note of the project (name, material,
 * base, net volume m³, density, tonnes, survey date) and a total line per material. Project
 * members; others 404.
 */
import {
  stockpileInventory,
  stockpileInventoryCsv,
} from '#app/domain/annotations/stockpile-inventory.server.ts'
import { csvResponse } from '#app/domain/files/download.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ user, ids }) => {
    const inventory = stockpileInventory(user, { projectId: ids.id })
    return csvResponse(stockpileInventoryCsv(inventory), `${inventory.fileName}.csv`)
  },
})
