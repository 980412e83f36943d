/**
 * The processing runner: the `processing_jobs` row is the job and this walks it,
 * queued → uploading → processing → downloading → importing → completed (or failed,
 * canceled). Each step reads the row, talks to the node and writes the next state only if
 * the row is still in the state it read (a cancel wins). Nothing lives in memory: a
 * restarted server picks every active row up where it was. At most `concurrency` jobs are
 * worked on at once; a job waiting on its node is looked at every `pollMs`.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { surveyAreasOf } from '#app/domain/deliverables/map-view.server.ts'
import { absolutePathOf, jobFolder } from '#app/domain/files/storage-paths.server.ts'
import { closedRing } from '#app/domain/geometry/areas.ts'
import { appUrl, getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { ensureLocalFile } from '#app/lib/storage/file-cache.server.ts'
import {
  processingJobs,
  processingNodes,
  projects,
  users,
  type ProcessingJob,
  type ProcessingNote,
  type ProcessingStatus,
  type ProjectFile,
} from '#db/schema.ts'
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm'

import { importAllZip, ImportRefusedError } from './import.server.ts'
import {
  hashSecret,
  projectGcpFileWithoutAccessCheck,
  projectPhotosWithoutAccessCheck,
} from './jobs.server.ts'
import {
  cancelTask,
  commitTask,
  downloadAllZip,
  getTaskInfo,
  getTaskOutput,
  initTask,
  NodeOdmError,
  removeTask,
  TASK_STATUS,
  uploadFiles,
  type NodeAddress,
  type UploadFile,
} from './nodeodm-client.server.ts'
import { nodeAddress, pickNode } from './nodes.server.ts'
import {
  ACTIVE_PROCESSING_STATUSES,
  PROCESSING_MESSAGES,
  PROCESSING_STATUS_LABELS,
  taskOptions,
} from './presets.ts'
import { setProcessingRunner, type ProcessingRunner } from './runner-registry.server.ts'

registerStatefulModule('processing/runner')

/** A task the node lost is sent again as a new task this many times, then the job fails. */
const MAX_RESUBMITS = 2
const UPLOAD_ATTEMPTS = 5
const TAIL_LINES = 200

export interface RunnerOptions {
  concurrency?: number
  /** How often a job waiting on its node is looked at. */
  pollMs?: number
  /** How often the runner looks for due jobs. */
  tickMs?: number
  /** A node unreachable this long: the job is sent to another node. */
  offlineResubmitMs?: number
  /** The first wait before a failed upload batch is sent again (doubled each time). */
  retryBaseMs?: number
  batchFiles?: number
  batchBytes?: number
  maxUnzippedBytes?: number
  maxEntries?: number
  /** Where the node sends its webhook (this server's public address). */
  webhookBase?: string
  db?: DbOrTx
}

class Aborted extends Error {}

export function startProcessingJobs(options: RunnerOptions = {}): ProcessingRunner {
  const env = getEnv()
  const db = options.db ?? getDb()
  const concurrency = options.concurrency ?? env.PROCESSING_JOBS
  const pollMs = options.pollMs ?? env.PROCESSING_POLL_MS
  const tickMs = options.tickMs ?? Math.min(1000, pollMs)
  const offlineResubmitMs = options.offlineResubmitMs ?? 10 * 60_000
  const retryBaseMs = options.retryBaseMs ?? 2000
  const batchFiles = options.batchFiles ?? 20
  const batchBytes = options.batchBytes ?? 256 * 1024 * 1024
  const limits = {
    maxUnzippedBytes: options.maxUnzippedBytes ?? env.PROCESSING_MAX_UNZIPPED_BYTES,
    maxEntries: options.maxEntries ?? 50_000,
  }
  const webhookBase = options.webhookBase ?? appUrl()

  const running = new Map<number, { controller: AbortController; done: Promise<void> }>()
  let stopped = false
  let waiters: Array<() => void> = []

  const later = (ms: number) => new Date(Date.now() + ms)

  function reload(id: number) {
    return db.select().from(processingJobs).where(eq(processingJobs.id, id)).get()
  }

  /** Writes the job only while it is still in `from` (a cancel in between wins). */
  function move(job: ProcessingJob, values: Partial<typeof processingJobs.$inferInsert>, from = job.status) {
    const row = db
      .update(processingJobs)
      .set(values)
      .where(and(eq(processingJobs.id, job.id), eq(processingJobs.status, from)))
      .returning()
      .get()
    return row ?? null
  }

  function fail(job: ProcessingJob, message: string) {
    const moved = move(job, {
      status: 'failed',
      error: message.slice(0, 2000),
      stage: 'Failed',
      finishedAt: new Date(),
      nextCheckAt: null,
    })
    if (moved) freeTask(job)
    return moved
  }

  function nodeOf(job: ProcessingJob) {
    if (!job.nodeId) return null
    return db.select().from(processingNodes).where(eq(processingNodes.id, job.nodeId)).get() ?? null
  }

  /** Removes the job's task from its node, whatever the node says (it may be gone). */
  function freeTask(job: ProcessingJob) {
    const node = nodeOf(job)
    if (node && job.taskUuid) void removeTask(nodeAddress(node), job.taskUuid).catch(() => {})
  }

  function resubmit(job: ProcessingJob, reason: string) {
    if (job.resubmits >= MAX_RESUBMITS) {
      return fail(job, `${reason}. Sent again ${MAX_RESUBMITS} times already: giving up`)
    }
    const moved = move(job, {
      status: 'queued',
      taskUuid: null,
      nodeId: null,
      imagesUploaded: 0,
      outputLines: 0,
      resubmits: job.resubmits + 1,
      stage: `Sending again: ${reason}`.slice(0, 200),
      nodeSeenAt: null,
      nextCheckAt: null,
    })
    if (moved) freeTask(job)
    return moved
  }

  function unreachable(job: ProcessingJob, error: NodeOdmError) {
    const seen = job.nodeSeenAt ?? job.startedAt
    if (job.status !== 'queued' && seen && Date.now() - seen.getTime() >= offlineResubmitMs) {
      return resubmit(job, `the node was unreachable for ${Math.round(offlineResubmitMs / 60_000)} minutes`)
    }
    return move(job, {
      stage: `${PROCESSING_STATUS_LABELS[job.status]}: ${error.message}; trying again`.slice(0, 200),
      nextCheckAt: later(pollMs * 2),
    })
  }

  function boundaryOf(projectId: number) {
    const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
    const areas = project ? surveyAreasOf(project) : []
    if (!areas.length) return null
    return {
      type: 'FeatureCollection',
      features: areas.map((a) => ({
        type: 'Feature',
        properties: { area: a.areaNumber },
        geometry: { type: 'Polygon', coordinates: [closedRing(a.points)] },
      })),
    }
  }

  async function submit(job: ProcessingJob, signal: AbortSignal) {
    const photos = projectPhotosWithoutAccessCheck(job.projectId, db)
    if (!photos.length) return fail(job, PROCESSING_MESSAGES.noPhotos)
    const node = pickNode(photos.length, job.requestedNodeId, db)
    if (!node) return move(job, { stage: 'Waiting for a processing node', nextCheckAt: later(pollMs) })
    const project = db
      .select({ name: projects.name })
      .from(projects)
      .where(eq(projects.id, job.projectId))
      .get()
    const secret = crypto.randomBytes(24).toString('base64url')
    const extra = { ...job.options }
    const boundary = 'boundary' in extra ? null : boundaryOf(job.projectId)
    // NodeODM takes a `json` option as a JSON string.
    if (boundary) extra.boundary = JSON.stringify(boundary)
    const address = nodeAddress(node)
    const uuid = await initTask(address, {
      name: `${project?.name ?? 'Project'} (Kestrel job ${job.id})`.slice(0, 200),
      options: taskOptions(job.preset, extra),
      webhook: `${webhookBase}/api/processing/webhook/${job.id}/${secret}`,
    })
    if (signal.aborted) throw new Aborted()
    const moved = move(job, {
      status: 'uploading',
      nodeId: node.id,
      taskUuid: uuid,
      webhookSecretHash: hashSecret(secret),
      imagesCount: photos.length,
      imagesUploaded: 0,
      outputLines: 0,
      engineVersion: node.engineVersion,
      startedAt: job.startedAt ?? new Date(),
      nodeSeenAt: new Date(),
      stage: `Uploading photo 0 of ${photos.length}`,
      nextCheckAt: null,
    })
    if (!moved) {
      // Canceled while the task was made: the node forgets it.
      await cancelTask(address, uuid).catch(() => {})
      await removeTask(address, uuid).catch(() => {})
      return null
    }
    return upload(moved, signal)
  }

  /** Sends once, again after a growing wait when the node could not be reached (never when it says `noRetry`). */
  async function withRetries(send: () => Promise<void>, signal: AbortSignal) {
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

  async function upload(job: ProcessingJob, signal: AbortSignal): Promise<ProcessingJob | null> {
    const node = nodeOf(job)
    if (!node || !job.taskUuid) return resubmit(job, 'the node was removed')
    const address = nodeAddress(node)
    const uuid = job.taskUuid
    const photos = projectPhotosWithoutAccessCheck(job.projectId, db)
    let current: ProcessingJob = job
    let index = job.imagesUploaded
    while (index < photos.length) {
      const batch: UploadFile[] = []
      let bytes = 0
      while (index + batch.length < photos.length && batch.length < batchFiles) {
        const photo = photos[index + batch.length]!
        if (batch.length && bytes + photo.fileSize > batchBytes) break
        batch.push(await toUpload(photo, `${photo.id}_${photo.originalName}`))
        bytes += photo.fileSize
      }
      await withRetries(() => uploadFiles(address, uuid, batch, signal), signal)
      index += batch.length
      const moved = move(current, {
        imagesUploaded: index,
        imagesCount: photos.length,
        stage: `Uploading photo ${index} of ${photos.length}`,
        nodeSeenAt: new Date(),
      })
      if (!moved) return null
      current = moved
    }
    const gcp = projectGcpFileWithoutAccessCheck(job.projectId, db)
    if (gcp) {
      const file = await toUpload(gcp, 'gcp_list.txt')
      await withRetries(() => uploadFiles(address, uuid, [file], signal), signal)
    }
    await withRetries(() => commitTask(address, uuid), signal)
    return move(current, {
      status: 'processing',
      stage: 'Queued on the node',
      nodeSeenAt: new Date(),
      nextCheckAt: later(pollMs),
    })
  }

  async function follow(job: ProcessingJob, signal: AbortSignal) {
    const node = nodeOf(job)
    if (!node || !job.taskUuid) return resubmit(job, 'the node was removed')
    const address = nodeAddress(node)
    const info = await getTaskInfo(address, job.taskUuid)
    const lines = await getTaskOutput(address, job.taskUuid, job.outputLines).catch((error) => {
      if (error instanceof NodeOdmError && error.kind !== 'not_found') return [] as string[]
      throw error
    })
    if (signal.aborted) throw new Aborted()
    const tail = [...(job.outputTail ?? []), ...lines].slice(-TAIL_LINES)
    const seen = {
      nodeSeenAt: new Date(),
      outputTail: tail,
      outputLines: job.outputLines + lines.length,
    }
    const progress = Math.max(job.progressPercent, Math.min(99, Math.floor(info.progress ?? 0)))
    switch (info.status.code) {
      case TASK_STATUS.queued:
        return move(job, { ...seen, stage: 'Queued on the node', nextCheckAt: later(pollMs) })
      case TASK_STATUS.running:
        return move(job, {
          ...seen,
          progressPercent: progress,
          stage: 'Processing on the node',
          nextCheckAt: later(pollMs),
        })
      case TASK_STATUS.failed:
        return fail(
          move(job, seen) ?? job,
          info.status.errorMessage?.trim() ||
            `The node could not process the photos${tail.length ? `: ${tail.at(-1)}` : ''}`,
        )
      case TASK_STATUS.canceled:
        return fail(move(job, seen) ?? job, 'The task was canceled on the node')
      case TASK_STATUS.completed: {
        const moved = move(job, {
          ...seen,
          progressPercent: progress,
          status: 'downloading',
          stage: 'Downloading results',
          nextCheckAt: null,
        })
        return moved ? download(moved, signal) : null
      }
      default:
        return move(job, { ...seen, nextCheckAt: later(pollMs) })
    }
  }

  async function download(job: ProcessingJob, signal: AbortSignal) {
    const node = nodeOf(job)
    if (!node || !job.taskUuid) return resubmit(job, 'the node was removed')
    const folder = jobFolder(job.id)
    await fs.promises.mkdir(folder, { recursive: true })
    const partial = path.join(folder, 'all.zip.partial')
    try {
      await downloadAllZip(nodeAddress(node), job.taskUuid, partial, limits.maxUnzippedBytes, signal)
    } catch (error) {
      await fs.promises.rm(partial, { force: true })
      if (signal.aborted) throw new Aborted()
      throw error
    }
    await fs.promises.rename(partial, path.join(folder, 'all.zip'))
    const moved = move(job, { status: 'importing', stage: 'Importing results', nodeSeenAt: new Date() })
    return moved ? importResults(moved, signal) : null
  }

  function adminFor(job: ProcessingJob) {
    if (job.createdBy) return job.createdBy
    return (
      db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).orderBy(asc(users.id)).get()
        ?.id ?? null
    )
  }

  /** What each deliverable notes of the job; the node's own processing time when it still answers. */
  async function noteOf(job: ProcessingJob): Promise<ProcessingNote> {
    const node = nodeOf(job)
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

  async function importResults(job: ProcessingJob, signal: AbortSignal) {
    const zipPath = path.join(jobFolder(job.id), 'all.zip')
    if (!fs.existsSync(zipPath)) {
      return move(job, { status: 'downloading', stage: 'Downloading results', nextCheckAt: null })
    }
    const adminId = adminFor(job)
    if (!adminId) return fail(job, 'No admin account is left to register the results for')
    const note = await noteOf(job)
    try {
      await importAllZip({ jobId: job.id, projectId: job.projectId, adminId, zipPath, limits, signal, note })
    } catch (error) {
      if (signal.aborted) throw new Aborted()
      if (error instanceof ImportRefusedError) await fs.promises.rm(zipPath, { force: true })
      throw error
    }
    const done = move(job, {
      status: 'completed',
      progressPercent: 100,
      stage: 'Completed',
      error: null,
      finishedAt: new Date(),
      nextCheckAt: null,
    })
    await fs.promises.rm(zipPath, { force: true })
    if (done) freeTask(done)
    return done
  }

  /** A canceled job's task: cancel then remove on the node, errors ignored. */
  async function cleanUpCanceled(job: ProcessingJob) {
    const node = nodeOf(job)
    if (node && job.taskUuid) {
      const address: NodeAddress = nodeAddress(node)
      await cancelTask(address, job.taskUuid).catch(() => {})
      await removeTask(address, job.taskUuid).catch(() => {})
    }
    db.update(processingJobs).set({ cancelRequested: false }).where(eq(processingJobs.id, job.id)).run()
    await fs.promises.rm(path.join(jobFolder(job.id), 'all.zip'), { force: true })
  }

  const steps: Partial<
    Record<ProcessingStatus, (job: ProcessingJob, signal: AbortSignal) => Promise<unknown>>
  > = {
    queued: submit,
    uploading: upload,
    processing: follow,
    downloading: download,
    importing: importResults,
  }

  async function advance(id: number, signal: AbortSignal) {
    const job = reload(id)
    if (!job) return
    if (job.status === 'canceled') return job.cancelRequested ? cleanUpCanceled(job) : undefined
    const step = steps[job.status]
    if (!step) return
    try {
      await step(job, signal)
    } catch (error) {
      if (error instanceof Aborted || signal.aborted) return
      // The row may have moved on inside the step: decide on its state now.
      const fresh = reload(id)
      if (!fresh || !ACTIVE_PROCESSING_STATUSES.includes(fresh.status)) return
      if (error instanceof NodeOdmError) {
        if (error.kind === 'not_found') return resubmit(fresh, 'the node no longer knows the task')
        if (error.kind === 'unreachable' && !error.noRetry) return unreachable(fresh, error)
        return fail(fresh, `The node refused: ${error.message}`)
      }
      if (error instanceof ImportRefusedError) return fail(fresh, error.message)
      console.error('[processing] job step failed', error)
      return fail(fresh, `Processing stopped: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  function dueJobs() {
    return db
      .select({ id: processingJobs.id })
      .from(processingJobs)
      .where(
        or(
          and(
            inArray(processingJobs.status, [...ACTIVE_PROCESSING_STATUSES]),
            or(isNull(processingJobs.nextCheckAt), lte(processingJobs.nextCheckAt, new Date())),
          ),
          and(eq(processingJobs.status, 'canceled'), eq(processingJobs.cancelRequested, true)),
        ),
      )
      .orderBy(sql`coalesce(${processingJobs.nextCheckAt}, 0)`, asc(processingJobs.id))
      .limit(100)
      .all()
  }

  function hasWork() {
    return Boolean(
      db
        .select({ id: processingJobs.id })
        .from(processingJobs)
        .where(
          or(
            inArray(processingJobs.status, [...ACTIVE_PROCESSING_STATUSES]),
            eq(processingJobs.cancelRequested, true),
          ),
        )
        .get(),
    )
  }

  function settleWaiters() {
    if (!waiters.length || running.size || hasWork()) return
    const ready = waiters
    waiters = []
    for (const resolve of ready) resolve()
  }

  function tick() {
    if (stopped) return
    for (const { id } of dueJobs()) {
      if (running.size >= concurrency) break
      if (running.has(id)) continue
      const controller = new AbortController()
      const done = advance(id, controller.signal)
        .catch((error) => console.error('[processing] job crashed', error))
        .then(() => {
          running.delete(id)
          settleWaiters()
        })
      running.set(id, { controller, done })
    }
    settleWaiters()
  }

  const timer = setInterval(tick, tickMs)
  timer.unref()

  const runner: ProcessingRunner = {
    kick() {
      setImmediate(tick)
    },
    abortJob(jobId) {
      running.get(jobId)?.controller.abort()
    },
    idle() {
      return new Promise((resolve) => {
        waiters.push(resolve)
        settleWaiters()
      })
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      setProcessingRunner(null)
      for (const { controller } of running.values()) controller.abort()
      await Promise.all([...running.values()].map((r) => r.done))
      const ready = waiters
      waiters = []
      for (const resolve of ready) resolve()
    },
  }
  setProcessingRunner(runner)
  runner.kick()
  return runner
}
