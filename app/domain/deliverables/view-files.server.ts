/**
 * Sending a viewing copy: the download helper's Range/ETag answer, inline and cacheable for an
 * hour; or, evicted from the cache with S3_PRESIGNED_VIEWS, a redirect to the bucket.
 */
import { sendFile } from '#app/domain/files/download.server.ts'
import { presignedReadUrl } from '#app/lib/storage/file-cache.server.ts'

import type { ViewFileToSend } from './deliverables.server.ts'

/** Share links: every read asks again (ETag → 304), so a revoked link's copies are not shown from the cache. */
export const SHARED_VIEW_CACHE = 'private, no-cache, no-transform'

/** How a share link's viewing copies are sent: re-checked at every read, and a bucket URL that dies within a minute of a revoke. */
export const SHARED_VIEW = { cacheControl: SHARED_VIEW_CACHE, presignedSeconds: 60 } as const

export async function sendViewFile(
  request: Request,
  file: ViewFileToSend,
  {
    cacheControl = 'private, max-age=3600, no-transform',
    presignedSeconds,
  }: { cacheControl?: string; presignedSeconds?: number } = {},
): Promise<Response> {
  // The caller's access check came first; the URL outlives it by minutes at most, never cached.
  const presigned = await presignedReadUrl(file.path, file.size, file.mime, presignedSeconds)
  if (presigned)
    return new Response(null, { status: 302, headers: { Location: presigned, 'Cache-Control': 'no-store' } })
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
