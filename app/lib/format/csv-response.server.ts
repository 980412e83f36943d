/** A CSV the app wrote, answered as a file: the one set of headers of every CSV download. */
import { contentDisposition } from '#app/domain/files/download.server.ts'

export function csvResponse(csv: string, fileName: string) {
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': contentDisposition(fileName, 'attachment'),
      'Cache-Control': 'private, no-store',
    },
  })
}
