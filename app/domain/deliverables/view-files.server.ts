/** Sending a viewing copy: the download helper's Range/ETag answer, inline and cacheable for an hour. */
import { sendFile } from '#app/domain/files/download.server.ts'

import type { ViewFileToSend } from './deliverables.server.ts'

export function sendViewFile(request: Request, file: ViewFileToSend): Response {
  return sendFile(request, {
    path: file.path,
    size: file.size,
    mime: file.mime,
    sha256: file.etag,
    downloadName: file.downloadName,
    lastModified: file.lastModified,
    disposition: 'inline',
    // Panning the map re-reads the same tiles: an hour without asking, then the ETag decides.
    cacheControl: 'private, max-age=3600, no-transform',
  })
}
