/**
 * `downloading`: the task's all.zip is fetched into the job's folder (as `.partial`, renamed
 * when whole, so a half archive is never imported); the job moves to `importing`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import type { ProcessingJob } from '#db/schema.ts'

import { downloadAllZip } from '../nodeodm-client.server.ts'
import { nodeAddress } from '../nodes.server.ts'
import { Aborted, move, nodeOf, resubmit, type StepContext } from './context.server.ts'

export async function download(job: ProcessingJob, { db, signal, settings }: StepContext) {
  const node = nodeOf(db, job)
  if (!node || !job.taskUuid) return resubmit(db, job, 'the node was removed')
  const folder = jobFolder(job.id)
  await fs.promises.mkdir(folder, { recursive: true })
  const partial = path.join(folder, 'all.zip.partial')
  try {
    await downloadAllZip(nodeAddress(node), job.taskUuid, partial, settings.limits.maxUnzippedBytes, signal)
  } catch (error) {
    await fs.promises.rm(partial, { force: true })
    if (signal.aborted) throw new Aborted()
    throw error
  }
  await fs.promises.rename(partial, path.join(folder, 'all.zip'))
  return move(db, job, { status: 'importing', stage: 'Importing results', nodeSeenAt: new Date() })
}
