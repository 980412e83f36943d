/**
 * "Download all" (ADR 234): one ZIP of a project's deliverables plus `checksums.sha256`,
 * streamed with archiver straight from the stored files to the answer — no temporary
 * copy, one file open at a time, memory bounded by the stream buffers whatever the size.
 * Rasters, video and archives are stored as they are (already compressed; deflating
 * gigabytes would only cost CPU); text formats are deflated.
 */
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { cleanOriginalName } from '#app/domain/files/content-check.server.ts'
import { extensionOf } from '#app/domain/files/rules.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import type { ProjectFile } from '#db/schema.ts'
import { ZipArchive } from 'archiver'

const CHECKSUMS_NAME = 'checksums.sha256'

/** Formats worth deflating: text that shrinks several times. Everything else is stored. */
const DEFLATED_EXTENSIONS = new Set(['csv', 'txt', 'json', 'geojson', 'kml', 'dxf', 'xml'])

function isWorthDeflating(file: Pick<ProjectFile, 'fileType' | 'originalName'>) {
  return file.fileType.startsWith('text/') || DEFLATED_EXTENSIONS.has(extensionOf(file.originalName))
}

/** Unique entry names: the client's names, a " (2)" before the extension for repeats. */
function entryNames(files: Pick<ProjectFile, 'originalName'>[]) {
  const taken = new Set<string>([CHECKSUMS_NAME.toLowerCase()])
  return files.map((file) => {
    const name = cleanOriginalName(file.originalName)
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

/** A safe file name for the ZIP itself: the project's name in plain characters. */
export function zipFileName(projectName: string, projectId: number) {
  const slug = projectName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `${slug || 'project'}-${projectId}-deliverables.zip`
}

/** The files whose bytes are on disk (one gone missing would break the archive midway). */
export function withBytesOnDisk(files: ProjectFile[]) {
  return files.filter((f) => fs.existsSync(absolutePathOf(f)))
}

/** The ZIP as a web stream; a file that fails midway aborts the stream (the download fails visibly). */
function deliverablesZipStream(files: ProjectFile[]): ReadableStream<Uint8Array> {
  const archive = new ZipArchive({ store: true, highWaterMark: 1024 * 1024 })
  const names = entryNames(files)
  files.forEach((file, index) => {
    archive.file(absolutePathOf(file), {
      name: names[index]!,
      date: file.createdAt,
      store: !isWorthDeflating(file),
    } as Parameters<typeof archive.file>[1])
  })
  archive.append(checksumLines(files.map((file, index) => ({ name: names[index]!, sha256: file.sha256 }))), {
    name: CHECKSUMS_NAME,
    date: new Date(),
  })
  archive.on('warning', (error) => archive.destroy(error))
  void archive.finalize().catch((error: unknown) => archive.destroy(error as Error))
  return Readable.toWeb(archive) as ReadableStream<Uint8Array>
}

/** The streamed answer: chunked, never cached, never re-compressed on the way. */
export function zipResponse(files: ProjectFile[], downloadName: string, headers: HeadersInit = {}) {
  const out = new Headers(headers)
  out.set('Content-Type', 'application/zip')
  out.set('Content-Disposition', `attachment; filename="${downloadName}"`)
  out.set('Cache-Control', 'private, no-store, no-transform')
  out.set('X-Content-Type-Options', 'nosniff')
  return new Response(deliverablesZipStream(files), { status: 200, headers: out })
}
