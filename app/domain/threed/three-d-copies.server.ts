/**
 * The view job's step for 3D deliverables (run by `view-jobs.server.ts`): a point cloud's facts
 * (`facts.json`) and, unless it is COPC, its thinned viewing copy (`cloud.las`); an OBJ ZIP's GLB
 * (`model.glb`). A GLB or a COPC is streamed as uploaded. Files live in DATA_DIR/views/<fileId>/.
 */
import fs from 'node:fs'
import path from 'node:path'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import type { ProjectFile } from '#db/schema.ts'

import { objZipToGlb } from './model-copy.server.ts'
import { factsOf, readLasHeader, writeThinnedCopy } from './point-cloud.server.ts'
import type { CloudFacts } from './three-d.ts'

export const THREE_D_COPY = { facts: 'facts.json', cloud: 'cloud.las', model: 'model.glb' } as const

export function isThreeDFile(file: Pick<ProjectFile, 'deliverableKind' | 'fileType'>) {
  return (
    (file.deliverableKind === 'point_cloud' && /las|laszip/.test(file.fileType)) ||
    (file.deliverableKind === 'model_3d' && (file.fileType === 'application/zip' || isGlb(file)))
  )
}

function isGlb(file: Pick<ProjectFile, 'fileType'>) {
  return file.fileType === 'model/gltf-binary'
}

/** Makes the copies in `dir` (empty, made by the caller); names are written `.partial` then renamed. */
export async function makeThreeDCopies(file: ProjectFile, dir: string, signal: AbortSignal) {
  const source = absolutePathOf(file)
  const finalise = async (name: string) =>
    fs.promises.rename(path.join(dir, `${name}.partial`), path.join(dir, name))
  if (file.deliverableKind === 'point_cloud') {
    const header = await readLasHeader(source)
    let facts: CloudFacts = factsOf(header)
    if (!header.copc) {
      const { kept, total } = await writeThinnedCopy(
        source,
        path.join(dir, `${THREE_D_COPY.cloud}.partial`),
        {
          signal,
        },
      )
      facts = factsOf(header, kept < total ? { kept, total } : null)
      await finalise(THREE_D_COPY.cloud)
    }
    await fs.promises.writeFile(path.join(dir, THREE_D_COPY.facts), JSON.stringify(facts))
    return
  }
  if (file.fileType === 'application/zip') {
    await objZipToGlb(source, path.join(dir, `${THREE_D_COPY.model}.partial`), { signal })
    await finalise(THREE_D_COPY.model)
  }
}

/** A point cloud's facts as its view job read them (null until ready). */
export function readCloudFacts(viewsRoot: string, fileId: number): CloudFacts | null {
  try {
    return JSON.parse(
      fs.readFileSync(path.join(viewsRoot, String(fileId), THREE_D_COPY.facts), 'utf8'),
    ) as CloudFacts
  } catch {
    return null
  }
}
