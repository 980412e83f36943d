import { json, type ActionFunctionArgs } from '@remix-run/node'
import { storeKmlZones } from '#app/domain/admin/airspace-admin.server.ts'
import { parseKml } from '#app/domain/airspace/kml-parse.server.ts'
import { readKmlUpload } from '#app/domain/airspace/kml-upload.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, withApiErrors } from '#app/domain/http/api.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  return withApiErrors(async () => {
    const { fileName, text } = await readKmlUpload(request)
    const zonesProcessed = storeKmlZones(admin.id, fileName, parseKml(text))
    return json({ success: true, zonesProcessed })
  })
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['POST'])
