/** A PDF the app drew, answered as a file: the one set of headers of every report and invoice route. */
import { contentDisposition } from '#app/domain/files/download.server.ts'

export function pdfResponse(
  bytes: Uint8Array,
  fileName: string,
  {
    disposition = 'attachment',
    cacheControl = 'private, no-store',
  }: { disposition?: 'attachment' | 'inline'; cacheControl?: string } = {},
) {
  return new Response(Buffer.from(bytes), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': contentDisposition(fileName, disposition),
      'Cache-Control': cacheControl,
    },
  })
}
