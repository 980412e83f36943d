/**
 * `downloading`: the task's all.zip is fetched into the job's folder (as `.partial`, renamed
 * when whole, so a half archive is never imported); the job moves to `importing`. The archive
 * may be at most four times the photos' bytes, and must fit on Kestrel's disk with
 * MIN_FREE_DISK_MB and a margin to spare, checked against its announced length before and as it
 * arrives: a disk too full fails the job with the figures instead of trying again.
 */
import fs from 'node:fs'
import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import { formatFileSize } from '#app/lib/format/numbers.ts'
import type { ProcessingJob } from '#db/schema.ts'

import { ImportRefusedError } from '../import.server.ts'
import { archivePathOf, partialArchivePathOf } from '../job-archive.server.ts'
import { downloadAllZip } from '../nodeodm-client.server.ts'
import { nodeAddress } from '../nodes.server.ts'
import { projectPhotosWithoutAccessCheck } from '../project-photos.server.ts'
import { archiveCapBytes, NoRoomError, watchRoomForArchive } from '../results-space.server.ts'
import { Aborted, move, nodeOf, resubmit, type StepContext } from './context.server.ts'

export async function download(job: ProcessingJob, { db, signal, settings }: StepContext) {
  const node = nodeOf(db, job)
  if (!node || !job.taskUuid) return resubmit(db, job, 'the node was removed')
  const folder = jobFolder(job.id)
  await fs.promises.mkdir(folder, { recursive: true })
  const partial = partialArchivePathOf(job.id)
  const photoBytes = projectPhotosWithoutAccessCheck(job.projectId, db).reduce(
    (sum, p) => sum + p.fileSize,
    0,
  )
  const cap = archiveCapBytes(photoBytes, settings.limits.maxUnzippedBytes)
  const tooBig = () =>
    new ImportRefusedError(
      `all.zip is larger than ${formatFileSize(cap)}, the most ${formatFileSize(photoBytes)} of photos may bring back`,
    )
  const room = await watchRoomForArchive()
  const watch = (received: number, announced: number | null) => {
    if (received > cap || (announced ?? 0) > cap) throw tooBig()
    room.check(received, announced)
  }
  try {
    await downloadAllZip(nodeAddress(node), job.taskUuid, partial, cap, signal, watch)
  } catch (error) {
    const received = (await fs.promises.stat(partial).catch(() => null))?.size ?? 0
    await fs.promises.rm(partial, { force: true })
    if (signal.aborted) throw new Aborted()
    if (error instanceof NoRoomError || error instanceof ImportRefusedError) throw error
    // A write that failed with the disk at its floor: the disk, not the node (no retry).
    throw (await room.full(received)) ?? error
  } finally {
    room.stop()
  }
  await fs.promises.rename(partial, archivePathOf(job.id))
  return move(db, job, { status: 'importing', stage: 'Importing results', nodeSeenAt: new Date() })
}
