/**
 * The admin's KML upload: read the multipart field `kmlFile`
 * (size-limited while streaming), check the name, parse safely, store the zones in one
 * transaction. Any failure changes nothing.
 */
import {
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  MaxPartSizeExceededError,
} from '@remix-run/node'
import { readFormBody } from '#app/lib/http/form-body.server.ts'

import { isKmlFileName, KML_MAX_BYTES, kmlError, SELECT_KML_FILE } from './kml-parse.server.ts'

/** Reads `kmlFile` from a multipart request; throws kmlError (400/413; 415 is a file that is not .kml). */
export async function readKmlUpload(
  request: Request,
): Promise<{ fileName: string; text: string; formData: FormData }> {
  const type = request.headers.get('Content-Type') ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw kmlError('Send the KML file as multipart/form-data in the field kmlFile', 400)
  }
  let formData: FormData
  try {
    formData = await readFormBody(request, {
      uploadHandler: createMemoryUploadHandler({ maxPartSize: KML_MAX_BYTES }),
    })
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) {
      throw kmlError(`The KML file is too large (the limit is ${KML_MAX_BYTES / 1024 / 1024} MB)`, 413)
    }
    if (error instanceof Response && error.status === 403) throw error
    throw kmlError('The upload could not be read', 400)
  }
  const file = formData.get('kmlFile')
  if (!file || typeof file === 'string' || !file.name) throw kmlError(SELECT_KML_FILE, 400)
  if (!isKmlFileName(file.name)) throw kmlError(SELECT_KML_FILE, 415)
  return { fileName: file.name, text: await file.text(), formData }
}
