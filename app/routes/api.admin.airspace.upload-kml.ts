import { json } from '@remix-run/node'
import { storeKmlZones } from '#app/domain/admin/airspace-admin.server.ts'
import { parseKml } from '#app/domain/airspace/kml-parse.server.ts'
import { readKmlUpload } from '#app/domain/airspace/kml-upload.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  POST: async ({ request, user }) => {
    const { fileName, text } = await readKmlUpload(request)
    const zonesProcessed = storeKmlZones(user.id, fileName, parseKml(text))
    return json({ success: true, zonesProcessed })
  },
})
