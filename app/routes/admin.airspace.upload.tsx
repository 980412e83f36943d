// The Airspace tab's KML upload form posts here; the answer is a redirect with a toast.
import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { storeKmlZones } from '#app/domain/admin/airspace-admin.server.ts'
import { KmlError, parseKml } from '#app/domain/airspace/kml-parse.server.ts'
import { KmlFileTypeError, readKmlUpload } from '#app/domain/airspace/kml-upload.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'

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
    if (error instanceof KmlFileTypeError)
      return redirectWithToast(BACK, {
        type: 'error',
        title: 'Invalid File Type',
        description: error.message,
      })
    if (error instanceof KmlError)
      return redirectWithToast(BACK, { type: 'error', title: 'Upload Failed', description: error.message })
    throw error
  }
}
