/** Sending a viewing copy: the download helper's Range/ETag answer, inline and cacheable for an hour. */
import { sendFile } from '#app/domain/files/download.server.ts'

import type { ViewFileToSend } from './deliverables.server.ts'

/** Share links: every read asks again (ETag → 304), so a revoked link's copies are not shown from the cache. */
export const SHARED_VIEW_CACHE = 'private, no-cache, no-transform'

export function sendViewFile(
  request: Request,
  file: ViewFileToSend,
  { cacheControl = 'private, max-age=3600, no-transform' }: { cacheControl?: string } = {},
): Response {
  return sendFile(request, {
    path: file.path,
    size: file.size,
    mime: file.mime,
    sha256: file.etag,
    downloadName: file.downloadName,
    lastModified: file.lastModified,
    disposition: 'inline',
    // Signed in, panning the map re-reads the same tiles: an hour without asking, then the ETag decides.
    cacheControl,
  })
}
