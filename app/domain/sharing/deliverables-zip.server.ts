/**
 * "Download all": one ZIP of a project's deliverables plus `checksums.sha256`,
 * streamed with archiver straight from the stored files to the answer — no temporary
 * copy, one file open at a time, memory bounded by the stream buffers whatever the size.
 * Rasters, video and archives are stored as they are (already compressed; deflating
 * gigabytes would only cost CPU); text formats are deflated.
 */
import type { Readable } from 'node:stream'
import { cleanOriginalName } from '#app/domain/files/content-check.server.ts'
import { extensionOf } from '#app/domain/files/rules.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { datedFileName } from '#app/domain/files/survey-dates.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { isStoredFile, openStoredFile } from '#app/lib/storage/file-cache.server.ts'
import type { ProjectFile } from '#db/schema.ts'
import { ZipArchive } from 'archiver'

registerStatefulModule('sharing/deliverables-zip')

const CHECKSUMS_NAME = 'checksums.sha256'

/** Formats worth deflating: text that shrinks several times. Everything else is stored. */
const DEFLATED_EXTENSIONS = new Set(['csv', 'txt', 'json', 'geojson', 'kml', 'dxf', 'xml'])

function isWorthDeflating(file: Pick<ProjectFile, 'fileType' | 'originalName'>) {
  return file.fileType.startsWith('text/') || DEFLATED_EXTENSIONS.has(extensionOf(file.originalName))
}

/**
 * Unique entry names: the client's names (with the survey date of a site's repeat), a " (2)"
 * before the extension for names met twice.
 */
function entryNames(files: Pick<ProjectFile, 'originalName'>[], surveyDate: string | null) {
  const taken = new Set<string>([CHECKSUMS_NAME.toLowerCase()])
  return files.map((file) => {
    const name = datedFileName(cleanOriginalName(file.originalName), surveyDate)
    const dot = name.lastIndexOf('.')
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
    let candidate = name
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`
    taken.add(candidate.toLowerCase())
    return candidate
  })
}

/**
 * `sha256sum` lines (`<hex>  <name>`), from the hashes stored at upload. A name with a
 * backslash or line break is escaped the way GNU sha256sum does (a leading backslash).
 */
function checksumLines(entries: { name: string; sha256: string | null }[]) {
  return entries
    .filter((e): e is { name: string; sha256: string } => Boolean(e.sha256))
    .map(({ name, sha256 }) => {
      const escaped = name.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r')
      return `${escaped === name ? '' : '\\'}${sha256}  ${escaped}\n`
    })
    .join('')
}

/** A safe file name for the ZIP itself: the project's name in plain characters (and a repeat's survey date). */
export function zipFileName(projectName: string, projectId: number, surveyDate: string | null = null) {
  const slug = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
  const name = slug(projectName).slice(0, 60) || 'project'
  return `${name}-${projectId}${surveyDate ? `-${slug(surveyDate)}` : ''}-deliverables.zip`
}

/** The files whose bytes are stored (on disk or in the bucket; one gone missing would break the archive midway). */
export function withBytesOnDisk(files: ProjectFile[]) {
  return files.filter((f) => isStoredFile(absolutePathOf(f)))
}

/** Who a ZIP is built for: an account (signed in) or a share link (anyone holding it). */
type ZipOwner = { account: number } | { link: number }

/**
 * How many ZIPs may be built at once: each holds a file open and its buffers for as long as
 * its reader takes, so a link (no account needed) or an account can't hold many.
 */
const ZIP_LIMITS = { account: 2, link: 3, server: 16 } as const
const RETRY_AFTER = { 'Retry-After': '60' }

const ZIP_BUSY_MESSAGES = {
  account: `You already have ${ZIP_LIMITS.account} downloads of deliverables running. Please let one finish, then try again.`,
  link: `This link's deliverables are already being downloaded ${ZIP_LIMITS.link} times at once. Please try again when one has finished.`,
  server: 'The server is busy with other downloads. Please try again in a minute.',
} as const

interface RunningZip {
  key: string
  /** Bytes the archive has made so far (sent, or waiting in its buffers). */
  produced: () => number
}

const running = new Set<RunningZip>()

function ownerKey(owner: ZipOwner) {
  return 'account' in owner ? `account:${owner.account}` : `link:${owner.link}`
}

/** The ZIPs being built now, for the tests: whose, and how far. */
export function runningZips() {
  return [...running].map((zip) => ({ key: zip.key, bytesProduced: zip.produced() }))
}

/** A place among the ZIPs being built, or a 429 naming which limit is reached. */
function claimZip(owner: ZipOwner, produced: () => number) {
  const key = ownerKey(owner)
  const kind = 'account' in owner ? 'account' : 'link'
  const mine = [...running].filter((zip) => zip.key === key).length
  if (mine >= ZIP_LIMITS[kind]) throw new DomainError(429, ZIP_BUSY_MESSAGES[kind], { headers: RETRY_AFTER })
  if (running.size >= ZIP_LIMITS.server)
    throw new DomainError(429, ZIP_BUSY_MESSAGES.server, { headers: RETRY_AFTER })
  const zip = { key, produced }
  running.add(zip)
  return () => running.delete(zip)
}

/**
 * The ZIP as a web stream that the archive fills only when its reader asks (Node's
 * `Readable.toWeb` reads ahead without limit, so a slow reader had the whole ZIP in memory).
 * Files are added one at a time as the previous one is done, so one is open at once. The
 * work stops, and its file is closed, when the reader cancels or `signal` aborts (the client
 * went); a file that fails midway errors the stream (the download fails visibly).
 */
function deliverablesZipStream(
  files: ProjectFile[],
  options: { owner: ZipOwner; signal?: AbortSignal; surveyDate: string | null },
): ReadableStream<Uint8Array> {
  const archive = new ZipArchive({ store: true, highWaterMark: 256 * 1024 })
  const names = entryNames(files, options.surveyDate)
  const release = claimZip(options.owner, () => archive.pointer())
  let next = 0
  let current: Readable | null = null
  let stopped = false
  const stop = (error?: Error) => {
    if (stopped) return
    stopped = true
    release()
    options.signal?.removeEventListener('abort', onAbort)
    current?.destroy()
    archive.abort()
    archive.destroy(error)
  }
  const onAbort = () => stop()
  options.signal?.addEventListener('abort', onAbort, { once: true })

  const appendNext = () => {
    if (stopped) return
    if (next < files.length) {
      const file = files[next]!
      const name = names[next]!
      next++
      current = openStoredFile(absolutePathOf(file), file.fileSize)
      current.on('error', (error) => stop(error))
      archive.append(current, { name, date: file.createdAt, store: !isWorthDeflating(file) } as Parameters<
        typeof archive.append
      >[1])
    } else if (next === files.length) {
      next++
      current = null
      const sums = checksumLines(files.map((file, index) => ({ name: names[index]!, sha256: file.sha256 })))
      archive.append(sums, { name: CHECKSUMS_NAME, date: new Date() })
      void archive.finalize().catch((error: unknown) => stop(error as Error))
    }
  }
  archive.on('entry', appendNext)
  archive.on('warning', (error) => stop(error))
  archive.on('error', (error) => stop(error))
  appendNext()
  if (options.signal?.aborted) stop()

  const chunks = archive[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: IteratorResult<Buffer>
        try {
          chunk = stopped ? { done: true, value: undefined } : await chunks.next()
        } catch (error) {
          stop(error as Error)
          controller.error(error)
          return
        }
        // Stopped before the end (the client went, a file failed): never a short ZIP that looks whole.
        if (stopped) controller.error(new Error('The ZIP was stopped before its end'))
        else if (chunk.done) {
          stop()
          controller.close()
        } else
          controller.enqueue(new Uint8Array(chunk.value.buffer, chunk.value.byteOffset, chunk.value.length))
      },
      cancel() {
        stop()
      },
    },
    // Nothing read ahead: each chunk is made when the reader asks for it.
    { highWaterMark: 0 },
  )
}

/**
 * The streamed answer: chunked, never cached, never re-compressed on the way. Pass the
 * request (its signal stops the work when the client goes) and who the ZIP is for; a 429
 * DomainError when they already have as many ZIPs running as they may.
 */
export function zipResponse(
  files: ProjectFile[],
  downloadName: string,
  options: { owner: ZipOwner; request: Request; headers?: HeadersInit; surveyDate?: string | null },
) {
  const out = new Headers(options.headers)
  out.set('Content-Type', 'application/zip')
  out.set('Content-Disposition', `attachment; filename="${downloadName}"`)
  out.set('Cache-Control', 'private, no-store, no-transform')
  out.set('X-Content-Type-Options', 'nosniff')
  const body = deliverablesZipStream(files, {
    owner: options.owner,
    signal: options.request.signal,
    surveyDate: options.surveyDate ?? null,
  })
  return new Response(body, { status: 200, headers: out })
}
