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

/** The photos from `from` on, cut into batches of at most `batchFiles` files and `batchBytes` bytes. */
function batchesOf(photos: ProjectFile[], from: number, { batchFiles, batchBytes }: StepContext['settings']) {
  const batches: Array<{ from: number; to: number }> = []
  let start = from
  while (start < photos.length) {
    let end = start + 1
    let bytes = photos[start]!.fileSize
    while (end < photos.length && end - start < batchFiles && bytes + photos[end]!.fileSize <= batchBytes) {
      bytes += photos[end]!.fileSize
      end++
    }
    batches.push({ from: start, to: end })
    start = end
  }
  return batches
}

export async function upload(job: ProcessingJob, { db, signal, settings }: StepContext) {
  const node = nodeOf(db, job)
  if (!node || !job.taskUuid) return resubmit(db, job, 'the node was removed')
  const address = nodeAddress(node)
  const uuid = job.taskUuid
  // One batch failing for good stops the others (a plain controller: no nested AbortSignal.any).
  const local = new AbortController()
  const stop = () => local.abort(signal.reason)
  signal.addEventListener('abort', stop, { once: true })
  const send = (files: UploadFile[]) =>
    withRetries(() => uploadFiles(address, uuid, files, local.signal), local.signal, settings.retryBaseMs)
  const photos = projectPhotosWithoutAccessCheck(job.projectId, db)
  const batches = batchesOf(photos, job.imagesUploaded, settings)
  let current: ProcessingJob | null = job
  let next = 0
  // Progress is the photos sent without a gap from the first: a restart goes on from there.
  let sentInOrder = 0
  const sent = new Set<number>()
  async function sender() {
    while (next < batches.length && current && !local.signal.aborted) {
      const at = next++
      const { from, to } = batches[at]!
      await send(
        await Promise.all(photos.slice(from, to).map((p) => toUpload(p, `${p.id}_${p.originalName}`))),
      )
      sent.add(at)
      const before = sentInOrder
      while (sent.has(sentInOrder)) sentInOrder++
      if (sentInOrder === before || !current) continue
      const uploaded = batches[sentInOrder - 1]!.to
      current = move(db, current, {
        imagesUploaded: uploaded,
        imagesCount: photos.length,
        stage: `Uploading photo ${uploaded} of ${photos.length}`,
        nodeSeenAt: new Date(),
      })
    }
  }
  // Several batches stream at once, so the node writes one while the next is read and sent.
  const senders = Array.from({ length: Math.min(settings.uploadsInFlight, batches.length) }, sender)
  try {
    const outcomes = await Promise.allSettled(
      senders.map((s) => s.catch((error: unknown) => (stop(), Promise.reject(error)))),
    )
    const failed = outcomes.find(
      (o): o is PromiseRejectedResult => o.status === 'rejected' && !(o.reason instanceof Aborted),
    )
    if (failed) throw failed.reason
    if (signal.aborted) throw new Aborted()
  } finally {
    signal.removeEventListener('abort', stop)
  }
  if (!current) return null
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
