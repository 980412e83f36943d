/**
 * `importing`: the downloaded all.zip becomes the project's deliverables (`import.server.ts`),
 * each noting the job, what the preset needs checked and what was skipped recorded; the
 * archive is removed and the job is `completed` (a failure removes it too). No archive (a
 * restart after it was removed): back to `downloading`.
 */
import fs from 'node:fs'
import type { ProcessingJob, ProcessingNote } from '#db/schema.ts'

import { importAllZip, ImportRefusedError } from '../import.server.ts'
import { archivePathOf, removeJobArchive } from '../job-archive.server.ts'
import { getTaskInfo } from '../nodeodm-client.server.ts'
import { nodeAddress } from '../nodes.server.ts'
import { taskOptions } from '../presets.ts'
import { Aborted, adminFor, fail, freeTask, move, nodeOf, type StepContext } from './context.server.ts'

/** What each deliverable notes of the job; the node's own processing time when it still answers. */
async function noteOf({ db }: StepContext, job: ProcessingJob): Promise<ProcessingNote> {
  const node = nodeOf(db, job)
  const info =
    node && job.taskUuid ? await getTaskInfo(nodeAddress(node), job.taskUuid).catch(() => null) : null
  return {
    jobId: job.id,
    nodeLabel: node?.label ?? null,
    preset: job.preset,
    options: Object.fromEntries(taskOptions(job.preset, job.options).map((o) => [o.name, o.value])),
    engineVersion: job.engineVersion,
    processingMs: info?.processingTime ?? null,
    imagesCount: job.imagesCount,
  }
}

export async function importResults(job: ProcessingJob, ctx: StepContext) {
  const { db, signal, settings } = ctx
  const zipPath = archivePathOf(job.id)
  if (!fs.existsSync(zipPath)) {
    return move(db, job, { status: 'downloading', stage: 'Downloading results', nextCheckAt: null })
  }
  const adminId = adminFor(db, job)
  if (!adminId) return fail(db, job, 'No admin account is left to register the results for')
  const note = await noteOf(ctx, job)
  try {
    await importAllZip({
      jobId: job.id,
      projectId: job.projectId,
      adminId,
      zipPath,
      limits: settings.limits,
      signal,
      note,
      preset: job.preset,
    })
  } catch (error) {
    if (signal.aborted) throw new Aborted()
    if (error instanceof ImportRefusedError) await removeJobArchive(job.id)
    throw error
  }
  const done = move(db, job, {
    status: 'completed',
    progressPercent: 100,
    stage: 'Completed',
    error: null,
    finishedAt: new Date(),
    nextCheckAt: null,
  })
  await removeJobArchive(job.id)
  if (done) freeTask(db, done)
  return done
}
