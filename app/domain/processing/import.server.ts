/**
 * A node's all.zip into deliverables. The archive's directory is checked first (limits,
 * names, links: archive-reader.server.ts). Each product is recognised by its ODM path
 * (archive-products.ts) and staged only when its content is what the path says
 * (import-staging.server.ts); an empty or unreadable one is skipped with its reason,
 * recorded on the job. Everything else (tile pyramids, mbtiles, logs…) is never unpacked.
 * When a product the preset needs is missing or unreadable, nothing is kept and the job
 * fails naming it. Then each product goes through the one upload path
 * (`registerProjectFile`), so it enters the deliverable pipeline at its first step; good
 * 3D Tiles go to the job's folder for the 3D view, each file through the bucket's outbox.
 */
import fs from 'node:fs'
import path from 'node:path'
import { hasAccuracyStatement } from '#app/domain/deliverables/deliverable.ts'
import { assertRoomFor } from '#app/domain/files/disk-space.server.ts'
import { registerProjectFile } from '#app/domain/files/project-files.server.ts'
import type { ReceivedFile } from '#app/domain/files/receive.server.ts'
import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { queueObjectDeletesUnder, queueStoredFile, storageKeyOf } from '#app/lib/storage/outbox.server.ts'
import {
  processingJobs,
  projectFiles,
  type ProcessingNote,
  type ProcessingPreset,
  type ProcessingSkip,
} from '#db/schema.ts'
import { eq, inArray } from 'drizzle-orm'
import type yauzl from 'yauzl'

import {
  ARCHIVE_PRODUCTS,
  IMPORT_MESSAGES,
  REQUIRED_PRODUCTS,
  STATS_PATH,
  TILES_ROOT,
  type ProductCandidate,
  type ProductSpec,
} from './archive-products.ts'
import {
  ImportRefusedError,
  openEntry,
  openZip,
  readDirectory,
  type ImportLimits,
} from './archive-reader.server.ts'
import { stageFile, stageObjModel, stageTilesets, type StagingContext } from './import-staging.server.ts'
import { importStagingOf } from './job-archive.server.ts'
import { accuracyFromOdmStats } from './odm-stats.ts'

export { ImportRefusedError }

/** ODM's statistics are a few hundred KB; more is not a report. */
const MAX_STATS_BYTES = 8 * 1024 * 1024
/** The job keeps at most this many skips (an archive can name many textures). */
const MAX_SKIPS = 100
/** Statuses of a deliverable refusal that speak of the file itself (type, size), not of the project. */
const PRODUCT_REFUSALS = new Set([413, 415])

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
  /** Decides what must arrive (none required without one). */
  preset?: ProcessingPreset
}

export interface ImportResult {
  deliverableIds: number[]
  /** Products left out and why (also written on the job). */
  skipped: ProcessingSkip[]
}

interface StagedProduct {
  spec: ProductSpec
  candidate: ProductCandidate
  received: ReceivedFile
}

/** The accuracy ODM's stats.json states, or null (absent, too big, not JSON, no ground control). */
async function readAccuracy(zip: yauzl.ZipFile, entry: yauzl.Entry | undefined) {
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

/** The most the import may write: every candidate product, the model folder twice (parts and ZIP), the tiles. */
function plannedBytes(files: Map<string, yauzl.Entry>) {
  const candidates = new Set(ARCHIVE_PRODUCTS.flatMap((p) => p.candidates.map((c) => c.path)))
  let total = 0
  for (const [name, entry] of files) {
    if (candidates.has(name) || name.startsWith(TILES_ROOT)) total += entry.uncompressedSize
    if (name.startsWith('odm_texturing/')) total += 2 * entry.uncompressedSize
  }
  return total
}

/** The first readable candidate of a product, each refused one a skip; or why there is none. */
async function stageProduct(ctx: StagingContext, spec: ProductSpec) {
  const present = spec.candidates.filter((c) => ctx.files.has(c.path))
  if (!present.length) return 'missing' as const
  for (const candidate of present) {
    const staged =
      candidate.check === 'obj'
        ? await stageObjModel(ctx, candidate)
        : await stageFile(ctx, ctx.files.get(candidate.path)!, candidate.check)
    if ('received' in staged) return { spec, candidate, received: staged.received }
    ctx.skipped.push({ path: candidate.path, reason: staged.reason })
  }
  return 'unreadable' as const
}

function recordSkips(jobId: number, skipped: ProcessingSkip[]) {
  getDb()
    .update(processingJobs)
    .set({ skipped: skipped.slice(0, MAX_SKIPS) })
    .where(eq(processingJobs.id, jobId))
    .run()
}

/** Registers the archive's good products; returns their ids and what was skipped. Re-running skips what is stored. */
export async function importAllZip(input: ImportInput): Promise<ImportResult> {
  const skipped: ProcessingSkip[] = []
  const staged: StagedProduct[] = []
  const staging = importStagingOf(input.jobId)
  const zip = await openZip(input.zipPath)
  try {
    const entries = await readDirectory(zip, input.limits)
    const files = new Map(entries.filter((e) => !e.fileName.endsWith('/')).map((e) => [e.fileName, e]))
    try {
      await assertRoomFor(plannedBytes(files))
    } catch (error) {
      if (isDomainError(error)) throw new ImportRefusedError(error.message)
      throw error
    }
    const accuracy = await readAccuracy(zip, files.get(STATS_PATH))
    const ctx: StagingContext = { zip, files, staging, skipped, signal: input.signal }
    const required = new Set(input.preset ? REQUIRED_PRODUCTS[input.preset] : [])
    const problems: string[] = []
    for (const spec of ARCHIVE_PRODUCTS) {
      const outcome = await stageProduct(ctx, spec)
      if (typeof outcome === 'object') staged.push(outcome)
      else if (required.has(spec.slot)) problems.push(IMPORT_MESSAGES[outcome](spec))
    }
    const tiles = await stageTilesets(ctx)
    if (problems.length) throw new ImportRefusedError(problems.join('. '))
    if (!staged.length && !tiles) throw new ImportRefusedError('all.zip holds none of the expected outputs')

    // What the preset needs is registered first: if one is refused now, the job fails before the rest.
    staged.sort((a, b) => Number(required.has(b.spec.slot)) - Number(required.has(a.spec.slot)))
    const ids: number[] = []
    const measured: number[] = []
    for (const product of staged) {
      input.signal?.throwIfAborted()
      const id = await register(input, product, required.has(product.spec.slot), skipped)
      if (id === null) continue
      ids.push(id)
      if (hasAccuracyStatement(product.spec.kind)) measured.push(id)
    }
    if (tiles) await keepTiles(input.jobId, tiles)
    // The report's statement goes on what was measured on the ground; an admin may correct it.
    if (accuracy && measured.length)
      getDb().update(projectFiles).set({ accuracy }).where(inArray(projectFiles.id, measured)).run()
    return { deliverableIds: ids, skipped }
  } finally {
    zip.close()
    recordSkips(input.jobId, skipped)
    // Registered files were moved into place; what is left in tmp/ was not kept.
    await Promise.all(staged.map((s) => fs.promises.rm(s.received.path, { force: true })))
    await fs.promises.rm(staging, { recursive: true, force: true })
  }
}

/** One staged product as a deliverable of the job; null (and a skip) when an optional one is refused. */
async function register(
  input: ImportInput,
  product: StagedProduct,
  isRequired: boolean,
  skipped: ProcessingSkip[],
) {
  let fileId: number
  try {
    const file = await registerProjectFile({
      user: { id: input.adminId, role: 'admin' },
      projectId: input.projectId,
      category: 'processed_deliverable',
      originalName: product.candidate.name,
      received: product.received,
      // Held from the client until the job's outputs are published (`job-outputs.server.ts`).
      processingJobId: input.jobId,
    })
    fileId = file.id
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (!PRODUCT_REFUSALS.has(error.status)) throw new ImportRefusedError(error.message)
    if (isRequired)
      throw new ImportRefusedError(`${IMPORT_MESSAGES.unreadable(product.spec)}: ${error.message}`)
    skipped.push({ path: product.candidate.path, reason: `${product.received.size} bytes: ${error.message}` })
    return null
  }
  getDb()
    .update(projectFiles)
    .set({
      processingJobId: input.jobId,
      deliverableKind: product.spec.kind,
      processingNote: input.note ?? null,
    })
    .where(eq(projectFiles.id, fileId))
    .run()
  return fileId
}

/** The staged tilesets replace the job's last ones, here and in the bucket (a name in both is copied again). */
async function keepTiles(jobId: number, staged: string) {
  const tilesDir = path.join(jobFolder(jobId), '3d_tiles')
  await fs.promises.rm(tilesDir, { recursive: true, force: true })
  queueObjectDeletesUnder(storageKeyOf(tilesDir)!)
  await fs.promises.rename(staged, tilesDir)
  const files = await fs.promises.readdir(tilesDir, { recursive: true, withFileTypes: true })
  for (const file of files) {
    if (!file.isFile()) continue
    const target = path.join(file.parentPath, file.name)
    queueStoredFile(storageKeyOf(target)!, { size: (await fs.promises.stat(target)).size })
  }
}
