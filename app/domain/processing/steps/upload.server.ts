/**
 * `uploading`: the project's photos go to the node's task in batches (by count and bytes), each
 * batch sent again after a growing wait when the node could not be reached; progress is written
 * after each batch, so a restarted server goes on from the last batch sent. Then the GCP file
 * and the commit; the job moves to `processing`.
 */
import fs from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { ensureLocalFile } from '#app/lib/storage/file-cache.server.ts'
import type { ProcessingJob, ProjectFile } from '#db/schema.ts'

import { ImportRefusedError } from '../import.server.ts'
import { commitTask, NodeOdmError, uploadFiles, type UploadFile } from '../nodeodm-client.server.ts'
import { nodeAddress } from '../nodes.server.ts'
import {
  projectGcpFileWithoutAccessCheck,
  projectPhotosWithoutAccessCheck,
} from '../project-photos.server.ts'
import { Aborted, later, move, nodeOf, resubmit, type StepContext } from './context.server.ts'

const UPLOAD_ATTEMPTS = 5

/** Sends once, again after a growing wait when the node could not be reached (never when it says `noRetry`). */
async function withRetries(send: () => Promise<void>, signal: AbortSignal, retryBaseMs: number) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send()
    } catch (error) {
      if (signal.aborted) throw new Aborted()
      const retry = error instanceof NodeOdmError && error.kind === 'unreachable' && !error.noRetry
      if (!retry || attempt >= UPLOAD_ATTEMPTS) throw error
      await sleep(retryBaseMs * 2 ** (attempt - 1), undefined, { signal }).catch(() => {
        throw new Aborted()
      })
    }
  }
}

async function toUpload(file: ProjectFile, name: string): Promise<UploadFile> {
  const at = await ensureLocalFile(absolutePathOf(file))
  const stat = await fs.promises.stat(at).catch(() => null)
  if (!stat) throw new ImportRefusedError(`${file.originalName} is no longer stored: upload it again`)
  return { path: at, name, size: stat.size }
}

export async function upload(job: ProcessingJob, { db, signal, settings }: StepContext) {
  const node = nodeOf(db, job)
  if (!node || !job.taskUuid) return resubmit(db, job, 'the node was removed')
  const address = nodeAddress(node)
  const uuid = job.taskUuid
  const send = (files: UploadFile[]) =>
    withRetries(() => uploadFiles(address, uuid, files, signal), signal, settings.retryBaseMs)
  const photos = projectPhotosWithoutAccessCheck(job.projectId, db)
  let current: ProcessingJob = job
  let index = job.imagesUploaded
  while (index < photos.length) {
    const batch: UploadFile[] = []
    let bytes = 0
    while (index + batch.length < photos.length && batch.length < settings.batchFiles) {
      const photo = photos[index + batch.length]!
      if (batch.length && bytes + photo.fileSize > settings.batchBytes) break
      batch.push(await toUpload(photo, `${photo.id}_${photo.originalName}`))
      bytes += photo.fileSize
    }
    await send(batch)
    index += batch.length
    const moved = move(db, current, {
      imagesUploaded: index,
      imagesCount: photos.length,
      stage: `Uploading photo ${index} of ${photos.length}`,
      nodeSeenAt: new Date(),
    })
    if (!moved) return null
    current = moved
  }
  const gcp = projectGcpFileWithoutAccessCheck(job.projectId, db)
  if (gcp) await send([await toUpload(gcp, 'gcp_list.txt')])
  await withRetries(() => commitTask(address, uuid), signal, settings.retryBaseMs)
  return move(db, current, {
    status: 'processing',
    stage: 'Queued on the node',
    nodeSeenAt: new Date(),
    nextCheckAt: later(settings.pollMs),
  })
}
