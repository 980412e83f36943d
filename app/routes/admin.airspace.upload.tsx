// The Airspace tab's KML upload form posts here; the answer is a redirect with a toast.
import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { storeKmlZones } from '#app/domain/admin/airspace-admin.server.ts'
import { INVALID_FILE_TYPE, parseKml } from '#app/domain/airspace/kml-parse.server.ts'
import { readKmlUpload } from '#app/domain/airspace/kml-upload.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

const BACK = '/admin?tab=airspace'

export async function loader() {
  return redirect(BACK)
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  try {
    const { fileName, text } = await readKmlUpload(request)
    const zonesProcessed = storeKmlZones(admin.id, fileName, parseKml(text))
    return redirectWithToast(BACK, {
      title: 'KML Upload Successful',
      description: `${zonesProcessed} zone${zonesProcessed === 1 ? '' : 's'} processed from ${fileName}.`,
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    // 415 is a file whose name is not .kml; every other refusal is the upload failing.
    const title = error.status === 415 ? INVALID_FILE_TYPE : 'Upload Failed'
    return redirectWithToast(BACK, { type: 'error', title, description: error.message })
  }
}
