/**
 * What happens to a project file beyond files itself once it is stored or removed: the
 * deliverable pipeline (`deliverables/pipeline.server.ts`) plugs in here when it loads, so
 * files never imports it. Both run after the commit; without a pipeline they do nothing.
 */
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'

registerStatefulModule('files/file-hooks')

export interface FileHooks {
  /** A file was stored (every upload path, the processing import): its next steps start. */
  stored(fileId: number): Promise<void>
  /** A file's row is gone or retired: its running work stops and whatever was made from it goes. */
  removed(fileId: number): Promise<void>
}

let hooks: FileHooks | null = null

export function setFileHooks(next: FileHooks) {
  hooks = next
}

export async function fileStored(fileId: number) {
  await hooks?.stored(fileId)
}

export async function fileRemoved(fileId: number) {
  await hooks?.removed(fileId)
}
