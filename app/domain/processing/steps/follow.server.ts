/**
 * `processing`: the node's task is looked at every `pollMs` (its status, progress and new
 * console lines, a tail kept; the stage ODM's lines name, in plain words); a completed task
 * moves the job to `downloading`, a failed or canceled one fails it with the node's words.
 */
import type { ProcessingJob } from '#db/schema.ts'

import { getTaskInfo, getTaskOutput, NodeOdmError, TASK_STATUS } from '../nodeodm-client.server.ts'
import { nodeAddress } from '../nodes.server.ts'
import { isOdmStage, odmStageOf } from '../odm-stages.ts'
import { fail, later, move, nodeOf, resubmit, throwIfAborted, type StepContext } from './context.server.ts'

const TAIL_LINES = 200

export async function follow(job: ProcessingJob, { db, signal, settings }: StepContext) {
  const node = nodeOf(db, job)
  if (!node || !job.taskUuid) return resubmit(db, job, 'the node was removed')
  const address = nodeAddress(node)
  const info = await getTaskInfo(address, job.taskUuid)
  const lines = await getTaskOutput(address, job.taskUuid, job.outputLines).catch((error) => {
    if (error instanceof NodeOdmError && error.kind !== 'not_found') return [] as string[]
    throw error
  })
  throwIfAborted(signal)
  const tail = [...(job.outputTail ?? []), ...lines].slice(-TAIL_LINES)
  const seen = {
    nodeSeenAt: new Date(),
    outputTail: tail,
    outputLines: job.outputLines + lines.length,
  }
  const progress = Math.max(job.progressPercent, Math.min(99, Math.floor(info.progress ?? 0)))
  const next = later(settings.pollMs)
  switch (info.status.code) {
    case TASK_STATUS.queued:
      return move(db, job, { ...seen, stage: 'Queued on the node', nextCheckAt: next })
    case TASK_STATUS.running:
      return move(db, job, {
        ...seen,
        progressPercent: progress,
        // ODM logs a stage once, as it starts: kept until the next one is logged.
        stage: odmStageOf(lines) ?? (isOdmStage(job.stage) ? job.stage : 'Processing on the node'),
        nextCheckAt: next,
      })
    case TASK_STATUS.failed:
      return fail(
        db,
        move(db, job, seen) ?? job,
        info.status.errorMessage?.trim() ||
          `The node could not process the photos${tail.length ? `: ${tail.at(-1)}` : ''}`,
      )
    case TASK_STATUS.canceled:
      return fail(db, move(db, job, seen) ?? job, 'The task was canceled on the node')
    case TASK_STATUS.completed:
      return move(db, job, {
        ...seen,
        progressPercent: progress,
        status: 'downloading',
        stage: 'Downloading results',
        nextCheckAt: null,
      })
    default:
      return move(db, job, { ...seen, nextCheckAt: next })
  }
}
