/**
 * The admin's KML upload (spec "Airspace"): read the multipart field `kmlFile`
 * (size-limited while streaming), check the name, parse safely, store the zones in one
 * transaction. Any failure changes nothing.
 */
import {
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  MaxPartSizeExceededError,
} from '@remix-run/node'
import { readFormBody } from '#app/domain/http/form-body.server.ts'

import {
  INVALID_FILE_TYPE,
  isKmlFileName,
  KML_MAX_BYTES,
  KmlError,
  parseKml,
  SELECT_KML_FILE,
} from './kml-parse.server.ts'

export class KmlFileTypeError extends KmlError {
  constructor() {
    super(SELECT_KML_FILE, 415)
  }
  readonly title = INVALID_FILE_TYPE
}

/** Reads `kmlFile` from a multipart request; throws KmlError (400/413/415). */
export async function readKmlUpload(
  request: Request,
): Promise<{ fileName: string; text: string; formData: FormData }> {
  const type = request.headers.get('Content-Type') ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new KmlError('Send the KML file as multipart/form-data in the field kmlFile', 400)
  }
  let formData: FormData
  try {
    formData = await readFormBody(request, {
      uploadHandler: createMemoryUploadHandler({ maxPartSize: KML_MAX_BYTES }),
    })
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) {
      throw new KmlError(`The KML file is too large (the limit is ${KML_MAX_BYTES / 1024 / 1024} MB)`, 413)
    }
    if (error instanceof Response && error.status === 403) throw error
    throw new KmlError('The upload could not be read', 400)
  }
  const file = formData.get('kmlFile')
  if (!file || typeof file === 'string' || !file.name) throw new KmlError(SELECT_KML_FILE, 400)
  if (!isKmlFileName(file.name)) throw new KmlFileTypeError()
  return { fileName: file.name, text: await file.text(), formData }
}

export function parseKmlText(text: string) {
  return parseKml(text)
}
