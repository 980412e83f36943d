/**
 * Sending a stored file: streamed from disk (never read whole), as an attachment with an
 * RFC 6266/5987 file name, a strong ETag (the content's SHA-256), and single byte ranges
 * (206, or 416 when the range is outside the file) so big downloads can resume.
 */
import { Readable } from 'node:stream'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { openStoredRead } from '#app/lib/storage/file-cache.server.ts'

import { cleanOriginalName } from './content-check.server.ts'
import { FILE_MESSAGES } from './rules.ts'

type ByteRange = { start: number; end: number }

/**
 * The one range of a `Range: bytes=…` header: `{start, end}` (inclusive), 'unsatisfiable'
 * (→ 416), or null to send the whole file (no header, other units, several ranges).
 */
function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header)
  if (!match) return null
  const specs = match[1]!
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (specs.length !== 1) return null
  const spec = /^(\d*)-(\d*)$/.exec(specs[0]!)
  if (!spec || (spec[1] === '' && spec[2] === '')) return null
  if (spec[1] === '') {
    const suffix = Number(spec[2])
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(spec[1])
  const end = spec[2] === '' ? size - 1 : Math.min(Number(spec[2]), size - 1)
  if (start >= size || (spec[2] !== '' && Number(spec[2]) < start)) return 'unsatisfiable'
  return { start, end }
}

function asciiFallback(name: string) {
  let out = ''
  for (const ch of name) {
    const code = ch.charCodeAt(0)
    out += code >= 0x20 && code < 0x7f && ch !== '"' && ch !== '\\' ? ch : '_'
  }
  return out
}

/** `attachment; filename="ascii"; filename*=UTF-8''percent-encoded` (RFC 6266 with RFC 5987). */
export function contentDisposition(name: string, type: 'attachment' | 'inline' = 'attachment') {
  const clean = cleanOriginalName(name)
  const encoded = encodeURIComponent(clean).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `${type}; filename="${asciiFallback(clean)}"; filename*=UTF-8''${encoded}`
}

/** A CSV the app wrote (`csvText`), answered as a file: the one set of headers of every CSV download. */
export function csvResponse(csv: string, fileName: string) {
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': contentDisposition(fileName, 'attachment'),
      'Cache-Control': 'private, no-store',
    },
  })
}

function etagMatches(header: string | null, etag: string) {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
}

export interface SendFileInput {
  path: string
  size: number
  mime: string
  /** Hex SHA-256 of the content. */
  sha256: string | null
  downloadName: string
  lastModified?: Date
  /** `inline` for viewing copies a page shows (default `attachment`). */
  disposition?: 'attachment' | 'inline'
  /** Default `private, no-cache, no-transform`; viewing copies may be cached longer. */
  cacheControl?: string
}

/** A streamed attachment answer for GET/HEAD with ETag, If-None-Match, If-Range and Range. */
export function sendFile(request: Request, input: SendFileInput): Response {
  // A file gone from disk (or not the size recorded) would end the stream early and close the
  // connection mid-answer: answer 404 before the headers go instead. Opened here, so an
  // eviction from the cache (FILE_STORE=s3) cannot take it away mid-answer; evicted already,
  // the bytes come from the bucket.
  const source = openStoredRead(input.path, input.size)
  if (!source || source.size !== input.size) {
    source?.close()
    console.error('[files] stored file missing or changed on disk', {
      expected: input.size,
      found: source?.size ?? null,
    })
    throw new DomainError(404, FILE_MESSAGES.notFound)
  }
  const etag = input.sha256 ? `"${input.sha256}"` : null
  const headers = new Headers({
    'Content-Type': input.mime,
    'Content-Disposition': contentDisposition(input.downloadName, input.disposition),
    'Accept-Ranges': 'bytes',
    // no-transform keeps the compression middleware away from byte ranges.
    'Cache-Control': input.cacheControl ?? 'private, no-cache, no-transform',
    // X-Content-Type-Options: nosniff comes from helmet on every answer (server/express-app.ts).
  })
  if (etag) headers.set('ETag', etag)
  if (input.lastModified) headers.set('Last-Modified', input.lastModified.toUTCString())

  if (etag && etagMatches(request.headers.get('If-None-Match'), etag)) {
    source.close()
    return new Response(null, { status: 304, headers })
  }

  let range = parseRange(request.headers.get('Range'), input.size)
  const ifRange = request.headers.get('If-Range')
  if (range && ifRange && (!etag || ifRange.trim() !== etag)) range = null

  if (range === 'unsatisfiable') {
    source.close()
    headers.set('Content-Range', `bytes */${input.size}`)
    headers.set('Content-Type', 'application/json')
    headers.delete('Content-Disposition')
    return new Response(JSON.stringify({ error: 'Requested range not satisfiable' }), {
      status: 416,
      headers,
    })
  }
  const start = range?.start ?? 0
  const end = range?.end ?? input.size - 1
  const length = input.size === 0 ? 0 : end - start + 1
  headers.set('Content-Length', String(length))
  if (range) headers.set('Content-Range', `bytes ${start}-${end}/${input.size}`)
  const status = range ? 206 : 200
  if (request.method === 'HEAD' || length === 0) {
    source.close()
    return new Response(null, { status, headers })
  }
  const stream = source.stream({ start, end })
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers })
}
