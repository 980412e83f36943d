/**
 * A streaming multipart/form-data reader for the simulator's uploads. Busboy (what NodeODM's
 * multer runs) scans every byte in JavaScript; on a shared 2-core machine that made the node the
 * bottleneck of the upload benchmark, which measures Kestrel. Here the boundary is found with
 * Buffer.indexOf (native code) and a file's bytes go to its sink as slices of the incoming
 * chunks, with back-pressure. What busboy decides is kept: part headers read as latin1, the
 * file name cut to its last path segment, a part without a name skipped.
 */

export class MultipartError extends Error {}

export interface PartInfo {
  /** The form field's name. */
  field: string
  /** The file name's last path segment; null for a plain field. */
  filename: string | null
}

/** Where a file part's bytes go; `write` resolves when the bytes may be let go (back-pressure). */
export interface FileSink {
  write(data: Buffer): void | Promise<void>
  end(): void | Promise<void>
}

export interface MultipartHandlers {
  /** A text field, its value cut at `fieldBytes` (`truncated` then). */
  field(name: string, value: string, truncated: boolean): void
  /** A file part: its sink, or null to drop its bytes. */
  file(info: PartInfo & { filename: string }): FileSink | null
}

const EMPTY: Buffer = Buffer.alloc(0)
const CRLF = Buffer.from('\r\n')
const HEADERS_END = Buffer.from('\r\n\r\n')
/** More header bytes than this in one part (busboy allows 80 KiB): malformed. */
const MAX_HEADER_BYTES = 80 * 1024
/** Bytes before the first boundary that are kept while looking for it. */
const MAX_PREAMBLE_BYTES = 64 * 1024

/** The boundary of a `multipart/form-data` Content-Type, or null. */
export function boundaryOf(contentType: string) {
  if (!/^multipart\/form-data/i.test(contentType)) return null
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType)
  return match ? (match[1] ?? match[2]!) : null
}

/** A header's parameters: quoted (only \\ and \" escaped, as busboy reads them), a token, or RFC 5987 `name*=charset''value`. */
function parameters(header: string) {
  const found: Record<string, string> = {}
  const re = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g
  for (let match = re.exec(header); match; match = re.exec(header)) {
    const name = match[1]!.toLowerCase()
    const value = match[2] !== undefined ? match[2].replace(/\\([\\"])/g, '$1') : match[3]!.trim()
    if (name.endsWith('*')) {
      const encoded = /^([^']*)'[^']*'(.*)$/.exec(value)
      if (!encoded) continue
      try {
        found[name.slice(0, -1)] =
          encoded[1]!.toLowerCase() === 'utf-8'
            ? decodeURIComponent(encoded[2]!)
            : encoded[2]!.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
                String.fromCharCode(parseInt(hex, 16)),
              )
      } catch {
        // An undecodable extended value: the plain parameter (if any) stands.
      }
    } else if (!(name in found)) found[name] = value
  }
  return found
}

function partInfo(block: Buffer): PartInfo | null {
  let disposition: string | undefined
  for (const line of block.toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'content-disposition')
      disposition = line.slice(colon + 1)
  }
  if (!disposition || !/^\s*form-data\s*(;|$)/i.test(disposition)) return null
  const params = parameters(disposition)
  if (params.name === undefined) return null
  const filename = params.filename
  // As busboy without preservePath: only the last segment of a path.
  return {
    field: params.name,
    filename:
      filename === undefined
        ? null
        : filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1),
  }
}

/**
 * Reads the form from `source`, calling `handlers` part by part (a file's sink is written in
 * order, each write awaited). Throws MultipartError for a malformed or unfinished form.
 */
export async function readMultipart(
  source: AsyncIterable<Buffer>,
  boundary: string,
  handlers: MultipartHandlers,
  { fieldBytes }: { fieldBytes: number },
) {
  const first = Buffer.from(`--${boundary}`)
  const delimiter = Buffer.from(`\r\n--${boundary}`)
  let state: 'preamble' | 'after' | 'headers' | 'body' | 'end' = 'preamble'
  // Bytes of the small states (before the first boundary, after one, a header block).
  let pending: Buffer = EMPTY
  // Body bytes held back: they may be the start of the next delimiter.
  let tail: Buffer = EMPTY
  let sink: FileSink | null = null
  let field: { name: string; chunks: Buffer[]; bytes: number; truncated: boolean } | null = null

  async function take(data: Buffer) {
    if (!data.length) return
    if (sink) await sink.write(data)
    else if (field && !field.truncated) {
      const room = fieldBytes - field.bytes
      if (data.length > room) field.truncated = true
      const kept = data.subarray(0, Math.min(room, data.length))
      field.chunks.push(Buffer.from(kept))
      field.bytes += kept.length
    }
  }

  async function endPart() {
    if (sink) await sink.end()
    if (field) handlers.field(field.name, Buffer.concat(field.chunks).toString('utf8'), field.truncated)
    sink = null
    field = null
    state = 'after'
  }

  /** A body's bytes up to the delimiter; returns what follows it (or nothing, waiting for more). */
  async function body(chunk: Buffer): Promise<Buffer> {
    // A chunk shorter than the delimiter cannot close a seam: held back with the tail (a few bytes).
    if (tail.length && chunk.length < delimiter.length - 1) {
      chunk = Buffer.concat([tail, chunk])
      tail = EMPTY
    }
    if (tail.length) {
      const seam = Buffer.concat([tail, chunk.subarray(0, delimiter.length - 1)])
      const at = seam.indexOf(delimiter)
      if (at !== -1 && at < tail.length) {
        const rest = chunk.subarray(at + delimiter.length - tail.length)
        await take(tail.subarray(0, at))
        tail = EMPTY
        await endPart()
        return rest
      }
      await take(tail)
      tail = EMPTY
    }
    const at = chunk.indexOf(delimiter)
    if (at !== -1) {
      await take(chunk.subarray(0, at))
      await endPart()
      return chunk.subarray(at + delimiter.length)
    }
    const keep = Math.min(delimiter.length - 1, chunk.length)
    await take(chunk.subarray(0, chunk.length - keep))
    tail = Buffer.from(chunk.subarray(chunk.length - keep))
    return EMPTY
  }

  // Read to the end whatever comes after the form (leaving a request unread would close its socket).
  for await (const raw of source) {
    let chunk: Buffer = raw
    while (chunk.length && state !== 'end') {
      if (state === 'body') {
        chunk = await body(chunk)
        continue
      }
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk
      chunk = EMPTY
      if (state === 'preamble') {
        const at = pending.indexOf(first)
        if (at === -1) {
          if (pending.length > MAX_PREAMBLE_BYTES) pending = pending.subarray(-first.length)
          continue
        }
        chunk = pending.subarray(at + first.length)
        pending = EMPTY
        state = 'after'
      } else if (state === 'after') {
        // "--" closes the form; otherwise the line ends (transport padding allowed) and a part begins.
        if (pending.length < 2) continue
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = 'end'
          break
        }
        const eol = pending.indexOf(CRLF)
        if (eol === -1) {
          if (pending.length > 1024) throw new MultipartError('Malformed part header')
          continue
        }
        chunk = pending.subarray(eol + 2)
        pending = EMPTY
        state = 'headers'
      } else {
        // An empty header block is the CRLF right away.
        const end = pending[0] === 0x0d && pending[1] === 0x0a ? -2 : pending.indexOf(HEADERS_END)
        if (end === -1) {
          if (pending.length > MAX_HEADER_BYTES) throw new MultipartError('Malformed part header')
          continue
        }
        const info = end < 0 ? null : partInfo(pending.subarray(0, end))
        chunk = pending.subarray(end < 0 ? 2 : end + 4)
        pending = EMPTY
        state = 'body'
        if (info && info.filename !== null) sink = handlers.file({ ...info, filename: info.filename })
        else if (info) field = { name: info.field, chunks: [], bytes: 0, truncated: false }
      }
    }
  }
  if (state !== 'end') throw new MultipartError('Unexpected end of form')
}
