/**
 * What happens to a project file beyond files itself once it is stored or removed: the
 * deliverable pipeline (`deliverables/pipeline.server.ts`) plugs in here when it loads, so
 * files never imports it. Both run after the commit. A raster or 3D deliverable stored with no
 * pipeline loaded is refused before anything is written (it would never get its viewing copy).
 */
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import type { ProjectFile } from '#db/schema.ts'

registerStatefulModule('files/file-hooks')

export interface FileHooks {
  /** A file was stored (every upload path, the processing import): its next steps start. */
  stored(fileId: number): Promise<void>
  /** A file's row is gone or retired: its running work stops and whatever was made from it goes. */
  removed(fileId: number): Promise<void>
}

let hooks: FileHooks | null = null

/** Plugs the pipeline in (null unplugs it); returns what was plugged in before. */
export function setFileHooks(next: FileHooks | null) {
  const previous = hooks
  hooks = next
  return previous
}

/** A deliverable the pipeline makes a viewing copy of: a TIFF, a point cloud or a 3D model. */
function needsViewingCopy(file: Pick<ProjectFile, 'fileType' | 'deliverableKind'>) {
  return (
    file.fileType === 'image/tiff' ||
    file.deliverableKind === 'point_cloud' ||
    file.deliverableKind === 'model_3d'
  )
}

/** Throws (before the file is written) when `file` needs the pipeline and this process has not loaded it. */
export function requirePipelineFor(file: Pick<ProjectFile, 'fileType' | 'deliverableKind'>) {
  if (hooks || !needsViewingCopy(file)) return
  throw new Error(
    `No deliverable pipeline is loaded: a ${file.fileType} deliverable stored now would never get its viewing copy ` +
      '(import app/domain/deliverables/pipeline.server.ts, as app/server-services.server.ts does)',
  )
}

export async function fileStored(fileId: number) {
  await hooks?.stored(fileId)
}

export async function fileRemoved(fileId: number) {
  await hooks?.removed(fileId)
}
