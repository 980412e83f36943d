/**
 * The view job's step for 3D deliverables (the viewing-copy step of `deliverables/pipeline.server.ts`):
 * a point cloud's facts (`facts.json`), unless it is COPC its thinned viewing copy (`cloud.las`),
 * and the reduced copy view-only share links read (`cloud-reduced.las`, at most half the points);
 * an OBJ ZIP's GLB (`model.glb`). A GLB or a COPC is streamed as uploaded. Files live in DATA_DIR/views/<fileId>/.
 */
import fs from 'node:fs'
import path from 'node:path'
import { absolutePathOf, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { readStoredFile, withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import { queueStoredFile, storageKeyOf } from '#app/lib/storage/outbox.server.ts'
import type { ProjectFile } from '#db/schema.ts'

import { objZipToGlb } from './model-copy.server.ts'
import {
  factsOf,
  PointCloudError,
  readLasHeader,
  reducedCloudBudget,
  writeThinnedCopy,
  type LasHeader,
} from './point-cloud.server.ts'
import type { CloudFacts } from './three-d.ts'

export const THREE_D_COPY = {
  facts: 'facts.json',
  cloud: 'cloud.las',
  reducedCloud: 'cloud-reduced.las',
  model: 'model.glb',
} as const

export function isThreeDFile(file: Pick<ProjectFile, 'deliverableKind' | 'fileType'>) {
  return (
    (file.deliverableKind === 'point_cloud' && /las|laszip/.test(file.fileType)) ||
    (file.deliverableKind === 'model_3d' && (file.fileType === 'application/zip' || isGlb(file)))
  )
}

function isGlb(file: Pick<ProjectFile, 'fileType'>) {
  return file.fileType === 'model/gltf-binary'
}

/**
 * Makes the copies in `dir` (empty, made by the caller) from the original, read through the
 * store; names are written `.partial` then renamed, and each finished copy goes to the bucket
 * too (FILE_STORE=s3).
 */
export async function makeThreeDCopies(file: ProjectFile, dir: string, signal: AbortSignal) {
  await withLocalFile(absolutePathOf(file), (source) => makeCopies(file, source, dir, signal))
  for (const name of Object.values(THREE_D_COPY)) {
    const done = path.join(dir, name)
    const stat = await fs.promises.stat(done).catch(() => null)
    if (stat) queueStoredFile(storageKeyOf(done)!, { size: stat.size })
  }
}

async function makeCopies(file: ProjectFile, source: string, dir: string, signal: AbortSignal) {
  const finalise = async (name: string) =>
    fs.promises.rename(path.join(dir, `${name}.partial`), path.join(dir, name))
  if (file.deliverableKind === 'point_cloud') {
    const header = await readLasHeader(source)
    let thinned: CloudFacts['thinned'] = null
    if (!header.copc) {
      const { kept, total } = await writeThinnedCopy(
        source,
        path.join(dir, `${THREE_D_COPY.cloud}.partial`),
        { signal },
      )
      thinned = kept < total ? { kept, total } : null
      await finalise(THREE_D_COPY.cloud)
    }
    const reduced = await writeReducedCopy(header, source, dir, signal)
    if (reduced) await finalise(THREE_D_COPY.reducedCloud)
    const facts = factsOf(header, thinned, reduced)
    await fs.promises.writeFile(path.join(dir, THREE_D_COPY.facts), JSON.stringify(facts))
    return
  }
  if (file.fileType === 'application/zip') {
    await objZipToGlb(source, path.join(dir, `${THREE_D_COPY.model}.partial`), { signal })
    await finalise(THREE_D_COPY.model)
  }
}

/**
 * The view-only copy (`.partial`): thinned from the viewing copy of a plain cloud (the same file
 * when it already holds at most half the points), from the COPC itself otherwise. A COPC too
 * large to decompress here gets none (null): view-only links then leave it out, the job succeeds.
 */
async function writeReducedCopy(header: LasHeader, source: string, dir: string, signal: AbortSignal) {
  const total = header.pointCount
  const budget = reducedCloudBudget(total)
  const out = path.join(dir, `${THREE_D_COPY.reducedCloud}.partial`)
  if (!header.copc) {
    const copy = path.join(dir, THREE_D_COPY.cloud)
    const kept = (await readLasHeader(copy)).pointCount
    if (kept <= budget) {
      await fs.promises.link(copy, out).catch(() => fs.promises.copyFile(copy, out))
      return { kept, total }
    }
    await writeThinnedCopy(copy, out, { budget, signal })
    return { kept: budget, total }
  }
  try {
    const { kept } = await writeThinnedCopy(source, out, { budget, signal })
    return { kept, total }
  } catch (error) {
    if (!(error instanceof PointCloudError)) throw error
    await fs.promises.rm(out, { force: true })
    return null
  }
}

/** A point cloud's facts as its view job read them, through the store (null until ready). */
export async function readCloudFacts(fileId: number): Promise<CloudFacts | null> {
  try {
    const bytes = await readStoredFile(path.join(storagePaths().views, String(fileId), THREE_D_COPY.facts))
    return JSON.parse(bytes.toString('utf8')) as CloudFacts
  } catch {
    return null
  }
}
