/**
 * The import's first half: each product the archive's paths name is read from its entry
 * into a staging place only when its first bytes are what the path says (a refused entry
 * is never unpacked), then checked whole where that needs the file (GDAL). What fails is
 * a skip with its reason, never an error: the import decides what is required.
 */
import fs from 'node:fs'
import path from 'node:path'
import { receiveStream, type ReceivedFile } from '#app/domain/files/receive.server.ts'
import { maxBytesForCategory } from '#app/domain/files/rules.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import type { ProcessingSkip } from '#db/schema.ts'
import { ZipArchive } from 'archiver'
import type yauzl from 'yauzl'

import { TILES_ROOT, TILESET_PATH, type ProductCandidate } from './archive-products.ts'
import { extractTo, readEntryHead, writeUnder, type EntryHead } from './archive-reader.server.ts'
import {
  fileProblem,
  headLength,
  headProblem,
  mtlTextures,
  sizeProblem,
  skipReason,
  type ContentCheck,
} from './product-checks.server.ts'

export interface StagingContext {
  zip: yauzl.ZipFile
  /** The archive's files by name (directory entries left out). */
  files: Map<string, yauzl.Entry>
  /** A folder of the job's own for what is unpacked before it is kept. */
  staging: string
  skipped: ProcessingSkip[]
  signal?: AbortSignal
}

type Checked = { head: EntryHead } | { reason: string }

/** The entry's first bytes checked; the caller streams its `body()` on (or it was stopped). */
async function openChecked(ctx: StagingContext, entry: yauzl.Entry, check: ContentCheck): Promise<Checked> {
  ctx.signal?.throwIfAborted()
  const size = entry.uncompressedSize
  const early = sizeProblem(check, size)
  if (early) return { reason: skipReason(size, early) }
  const limit = maxBytesForCategory('processed_deliverable', getEnv().DELIVERABLE_MAX_BYTES)
  if (size > limit)
    return { reason: skipReason(size, `larger than the ${limit}-byte limit for deliverables`) }
  let head: EntryHead
  try {
    head = await readEntryHead(ctx.zip, entry, headLength(check, size))
  } catch (error) {
    return { reason: skipReason(size, `cannot be unpacked (${(error as Error).message})`) }
  }
  const problem = headProblem(check, head.head, size)
  if (problem) {
    head.stop()
    return { reason: skipReason(size, problem) }
  }
  return { head }
}

/** A single-file product into tmp/ (as a received upload), or the reason it is skipped. */
export async function stageFile(
  ctx: StagingContext,
  entry: yauzl.Entry,
  check: ContentCheck,
): Promise<{ received: ReceivedFile } | { reason: string }> {
  const opened = await openChecked(ctx, entry, check)
  if ('reason' in opened) return opened
  const size = entry.uncompressedSize
  let received: ReceivedFile
  try {
    received = await receiveStream(opened.head.body(), Number.POSITIVE_INFINITY)
  } catch (error) {
    opened.head.stop()
    if (ctx.signal?.aborted || isDomainError(error)) throw error
    return { reason: skipReason(size, `cannot be unpacked (${(error as Error).message})`) }
  }
  const late = await fileProblem(check, received.path, ctx.signal).catch(async (error: unknown) => {
    await fs.promises.rm(received.path, { force: true })
    throw error
  })
  if (late) {
    await fs.promises.rm(received.path, { force: true })
    return { reason: skipReason(size, late) }
  }
  return { received }
}

/** Writes a checked entry into the staging folder, or records why it is left out. */
async function stagePart(
  ctx: StagingContext,
  name: string,
  check: ContentCheck,
  root: string,
  relative: string,
) {
  const entry = ctx.files.get(name)
  if (!entry) return null
  const opened = await openChecked(ctx, entry, check)
  if ('reason' in opened) {
    ctx.skipped.push({ path: name, reason: opened.reason })
    return null
  }
  await writeUnder(root, relative, opened.head.body())
  // What is parsed (an MTL) was read whole as its head.
  return opened.head.head
}

const MTLLIB = /^mtllib[ \t]+(\S[^\r\n]{0,300})$/m

/**
 * The OBJ with the material library it names (else its own name's `.mtl`) and the textures
 * that library names, each checked, zipped as one model (converted to GLB later, in a child
 * process, for the 3D view). A bad MTL or texture is a skip of its own; the OBJ still goes.
 */
export async function stageObjModel(
  ctx: StagingContext,
  candidate: ProductCandidate,
): Promise<{ received: ReceivedFile } | { reason: string }> {
  const entry = ctx.files.get(candidate.path)!
  const folder = path.posix.dirname(candidate.path)
  const modelDir = path.join(ctx.staging, 'model')
  await fs.promises.rm(modelDir, { recursive: true, force: true })
  const opened = await openChecked(ctx, entry, 'obj')
  if ('reason' in opened) return opened
  const objName = path.posix.basename(candidate.path)
  await writeUnder(modelDir, objName, opened.head.body())
  const declared = MTLLIB.exec(new TextDecoder().decode(opened.head.head))?.[1]?.trim()
  const mtlName = declared ?? objName.replace(/\.obj$/i, '.mtl')
  const inFolder = (name: string) => {
    const full = path.posix.normalize(path.posix.join(folder, name))
    return full.startsWith(`${folder}/`) ? full : null
  }
  const mtlPath = inFolder(mtlName)
  const mtl = mtlPath
    ? await stagePart(ctx, mtlPath, 'mtl', modelDir, mtlPath.slice(folder.length + 1))
    : null
  for (const texture of mtl ? mtlTextures(mtl) : []) {
    const texturePath = inFolder(texture)
    if (texturePath)
      await stagePart(ctx, texturePath, 'texture', modelDir, texturePath.slice(folder.length + 1))
  }
  const archive = new ZipArchive({ zlib: { level: 6 } })
  archive.directory(modelDir, false)
  void archive.finalize().catch((error: unknown) => archive.destroy(error as Error))
  const received = await receiveStream(archive, Number.POSITIVE_INFINITY)
  await fs.promises.rm(modelDir, { recursive: true, force: true })
  return { received }
}

/**
 * ODM's 3D Tiles, each tileset whose `tileset.json` is one, unpacked under the staging
 * folder's `3d_tiles/` (its tiles are only bounded by the archive's limits). Returns the
 * folder, or null when no tileset is good.
 */
export async function stageTilesets(ctx: StagingContext) {
  const tilesets = [...ctx.files.keys()].filter((name) => TILESET_PATH.test(name)).sort()
  const root = path.join(ctx.staging, '3d_tiles')
  await fs.promises.rm(root, { recursive: true, force: true })
  const folders = tilesets.map((name) => name.slice(0, -'tileset.json'.length))
  let kept = 0
  for (const [i, name] of tilesets.entries()) {
    const folder = folders[i]!
    const written = await stagePart(ctx, name, 'tileset', root, name.slice(TILES_ROOT.length))
    if (!written) continue
    kept++
    // The lone root tileset takes what no sub-folder's tileset claims.
    const others = folders.filter((f) => f !== folder && f.startsWith(folder))
    for (const [file, entry] of ctx.files) {
      if (file === name || !file.startsWith(folder) || others.some((f) => file.startsWith(f))) continue
      ctx.signal?.throwIfAborted()
      await extractTo(ctx.zip, entry, root, file.slice(TILES_ROOT.length))
    }
  }
  return kept ? root : null
}
