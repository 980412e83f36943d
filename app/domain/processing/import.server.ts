/**
 * A node's all.zip into deliverables. The archive is read with yauzl (central directory
 * first): too many entries, too many bytes claimed, a `..`/absolute name or a link refuse
 * the whole archive before anything is written. Only known ODM output paths are taken;
 * each product goes through the one upload path (`storeProjectFile`), so it enters the
 * deliverable pipeline at its first step (`deliverables/pipeline.server.ts`); `3d_tiles/` is unpacked into the job's folder for the 3D view, each of its files
 * through the bucket's outbox like every stored file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { hasAccuracyStatement } from '#app/domain/deliverables/deliverable.ts'
import { assertRoomFor } from '#app/domain/files/disk-space.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { queueObjectDeletesUnder, queueStoredFile, storageKeyOf } from '#app/lib/storage/outbox.server.ts'
import {
  projectFiles,
  type DeliverableAccuracy,
  type DeliverableKind,
  type ProcessingNote,
} from '#db/schema.ts'
import { ZipArchive } from 'archiver'
import { eq, inArray } from 'drizzle-orm'
import yauzl from 'yauzl'

import { accuracyFromOdmStats } from './odm-stats.ts'

export class ImportRefusedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImportRefusedError'
  }
}

export interface ImportLimits {
  /** The most the archive may unpack to, in bytes (as its directory claims; checked again while reading). */
  maxUnzippedBytes: number
  maxEntries: number
}

interface Product {
  entry: yauzl.Entry
  name: string
  kind: DeliverableKind
}

const SINGLE_PRODUCTS: Array<{ path: string; name: string; kind: DeliverableKind }> = [
  { path: 'odm_orthophoto/odm_orthophoto.tif', name: 'Orthomosaic.tif', kind: 'orthomosaic' },
  { path: 'odm_dem/dsm.tif', name: 'DSM - surface model.tif', kind: 'elevation' },
  { path: 'odm_dem/dtm.tif', name: 'DTM - terrain model.tif', kind: 'elevation' },
  { path: 'odm_texturing/odm_textured_model_geo.glb', name: '3D model.glb', kind: 'model_3d' },
  { path: 'odm_report/report.pdf', name: 'Processing report.pdf', kind: 'report' },
  { path: 'odm_report/shots.geojson', name: 'Camera positions.geojson', kind: 'vector' },
]
/** The point cloud in the order it is preferred: COPC (found by suffix), LAZ, then LAS. */
const PLAIN_POINT_CLOUDS = ['laz', 'las'].map((ext) => `odm_georeferencing/odm_georeferenced_model.${ext}`)
/** ODM's statistics: the accuracy statement is read from it (a few hundred KB; more is not a report). */
const STATS = 'odm_report/stats.json'
const MAX_STATS_BYTES = 8 * 1024 * 1024
const OBJ_PARTS = /^odm_texturing\/[^/]+\.(obj|mtl|png|jpe?g)$/i
const TILES = '3d_tiles/'
const S_IFMT = 0o170000
const S_IFLNK = 0o120000

/** Opens an archive for `readDirectory` (`label` names it in the refusals). */
export function openZip(file: string, label = 'all.zip') {
  return new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
      (error, zip) =>
        error ? reject(new ImportRefusedError(`${label} cannot be read: ${error.message}`)) : resolve(zip),
    ),
  )
}

/** Every entry from the central directory, checked against the limits and the naming rules. */
export function readDirectory(zip: yauzl.ZipFile, limits: ImportLimits, label = 'all.zip') {
  if (zip.entryCount > limits.maxEntries) {
    return Promise.reject(
      new ImportRefusedError(
        `${label} holds ${zip.entryCount} entries; at most ${limits.maxEntries} are accepted`,
      ),
    )
  }
  return new Promise<yauzl.Entry[]>((resolve, reject) => {
    const entries: yauzl.Entry[] = []
    let total = 0
    const fail = (message: string) => {
      zip.removeAllListeners('entry')
      reject(new ImportRefusedError(message))
    }
    zip.on('error', (error: Error) => fail(`${label} is not acceptable: ${error.message}`))
    zip.on('entry', (entry: yauzl.Entry) => {
      if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK)
        return fail(`${label} holds a link: ${entry.fileName}`)
      total += entry.uncompressedSize
      if (total > limits.maxUnzippedBytes) {
        return fail(`${label} would unpack to more than ${limits.maxUnzippedBytes} bytes`)
      }
      entries.push(entry)
      zip.readEntry()
    })
    zip.on('end', () => resolve(entries))
    zip.readEntry()
  })
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry) {
  return new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  )
}

/** Writes an entry under `root` (a path that would leave it is refused). */
export async function extractTo(zip: yauzl.ZipFile, entry: yauzl.Entry, root: string, relative: string) {
  const target = path.resolve(root, relative)
  if (!target.startsWith(path.resolve(root) + path.sep))
    throw new ImportRefusedError(`Unsafe entry: ${entry.fileName}`)
  await fs.promises.mkdir(path.dirname(target), { recursive: true })
  await pipeline(await openEntry(zip, entry), fs.createWriteStream(target))
  return target
}

/** The accuracy ODM's stats.json states, or null (absent, too big, not JSON, no ground control). */
async function readAccuracy(zip: yauzl.ZipFile, entries: yauzl.Entry[]): Promise<DeliverableAccuracy | null> {
  const entry = entries.find((e) => e.fileName === STATS)
  if (!entry || entry.uncompressedSize > MAX_STATS_BYTES) return null
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of (await openEntry(zip, entry)) as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_STATS_BYTES) return null
    chunks.push(chunk)
  }
  try {
    return accuracyFromOdmStats(JSON.parse(Buffer.concat(chunks).toString('utf8')))
  } catch {
    return null
  }
}

function chooseProducts(entries: yauzl.Entry[]) {
  const byName = new Map(entries.map((e) => [e.fileName, e]))
  const products: Product[] = []
  for (const p of SINGLE_PRODUCTS) {
    const entry = byName.get(p.path)
    if (entry) products.push({ entry, name: p.name, kind: p.kind })
  }
  const copc = entries.find((e) => /^odm_georeferencing\/[^/]+\.copc\.laz$/i.test(e.fileName))
  const cloud = copc ?? PLAIN_POINT_CLOUDS.map((p) => byName.get(p)).find(Boolean)
  if (cloud) {
    const name = copc ? 'Point cloud.copc.laz' : `Point cloud.${cloud.fileName.slice(-3)}`
    products.push({ entry: cloud, name, kind: 'point_cloud' })
  }
  const hasGlb = products.some((p) => p.kind === 'model_3d')
  const objParts = hasGlb ? [] : entries.filter((e) => OBJ_PARTS.test(e.fileName))
  const tiles = entries.filter((e) => e.fileName.startsWith(TILES) && !e.fileName.endsWith('/'))
  return { products, objParts: objParts.some((e) => /\.obj$/i.test(e.fileName)) ? objParts : [], tiles }
}

interface ImportInput {
  jobId: number
  projectId: number
  /** The admin the deliverables are registered for. */
  adminId: number
  zipPath: string
  limits: ImportLimits
  signal?: AbortSignal
  /** Noted on each deliverable: the job as it ran. */
  note?: ProcessingNote
}

/** Registers the archive's products; returns the deliverable ids. Re-running skips what is stored. */
export async function importAllZip(input: ImportInput): Promise<number[]> {
  const zip = await openZip(input.zipPath)
  try {
    const entries = await readDirectory(zip, input.limits)
    const { products, objParts, tiles } = chooseProducts(entries)
    if (!products.length) throw new ImportRefusedError('all.zip holds none of the expected outputs')
    const wanted = [...products.map((p) => p.entry), ...objParts, ...tiles]
    try {
      await assertRoomFor(wanted.reduce((sum, e) => sum + e.uncompressedSize, 0))
    } catch (error) {
      if (isDomainError(error)) throw new ImportRefusedError(error.message)
      throw error
    }
    const accuracy = await readAccuracy(zip, entries)
    const user = { id: input.adminId, role: 'admin' as const }
    const ids: number[] = []
    const measured: number[] = []
    const store = async (name: string, kind: DeliverableKind, source: NodeJS.ReadableStream | ZipArchive) => {
      input.signal?.throwIfAborted()
      const file = await storeProjectFile({
        user,
        projectId: input.projectId,
        category: 'processed_deliverable',
        originalName: name,
        source: source as AsyncIterable<Uint8Array>,
      })
      getDb()
        .update(projectFiles)
        .set({ processingJobId: input.jobId, deliverableKind: kind, processingNote: input.note ?? null })
        .where(eq(projectFiles.id, file.id))
        .run()
      ids.push(file.id)
      if (hasAccuracyStatement(kind)) measured.push(file.id)
    }
    for (const product of products)
      await store(product.name, product.kind, await openEntry(zip, product.entry))

    const folder = jobFolder(input.jobId)
    if (objParts.length) {
      // No GLB: the OBJ with its material and textures, zipped as one model.
      const modelDir = path.join(folder, 'model')
      await fs.promises.rm(modelDir, { recursive: true, force: true })
      const files: string[] = []
      for (const e of objParts) files.push(await extractTo(zip, e, modelDir, path.basename(e.fileName)))
      const archive = new ZipArchive({ zlib: { level: 6 } })
      for (const file of files) archive.file(file, { name: path.basename(file) })
      void archive.finalize().catch((error: unknown) => archive.destroy(error as Error))
      await store('3D model (OBJ).zip', 'model_3d', archive)
      await fs.promises.rm(modelDir, { recursive: true, force: true })
    }
    if (tiles.length) {
      const tilesDir = path.join(folder, '3d_tiles')
      await fs.promises.rm(tilesDir, { recursive: true, force: true })
      // A re-run's tiles replace the last run's in the bucket too (a name in both is copied again).
      queueObjectDeletesUnder(storageKeyOf(tilesDir)!)
      for (const e of tiles) {
        input.signal?.throwIfAborted()
        const target = await extractTo(zip, e, tilesDir, e.fileName.slice(TILES.length))
        // Not through the store: the file this loop has just written, before it is queued.
        queueStoredFile(storageKeyOf(target)!, { size: (await fs.promises.stat(target)).size })
      }
    }
    // The report's statement goes on what was measured on the ground; an admin may correct it.
    if (accuracy && measured.length)
      getDb().update(projectFiles).set({ accuracy }).where(inArray(projectFiles.id, measured)).run()
    return ids
  } finally {
    zip.close()
  }
}
