/**
 * Processing jobs as the admin and the project's people see them: start, cancel, restart,
 * the node's console lines, the webhook's prompt. The runner (runner.server.ts) does the
 * work; these only write the row and wake it.
 */
import crypto from 'node:crypto'
import { getDeliverableSettings } from '#app/domain/deliverables/settings.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import {
  processingJobs,
  processingNodes,
  projectFiles,
  projects,
  type JobOutputs,
  type ProcessingJob,
  type ProcessingPreset,
  type User,
} from '#db/schema.ts'
import { and, desc, eq, inArray, isNull } from 'drizzle-orm'

import { plainStage } from './client-stage.ts'
import { discardJobOutputs, outputsStates } from './job-outputs.server.ts'
import { validateOptions } from './node-checks.server.ts'
import type { PhotoProblem } from './photo-check.ts'
import {
  ACTIVE_PROCESSING_STATUSES,
  awaitingDelivery,
  PROCESSING_MESSAGES,
  type OutputsState,
} from './presets.ts'
import { acceptedPhotoProblems, projectPhotosWithoutAccessCheck } from './project-photos.server.ts'
import { processingRunner } from './runner-registry.server.ts'

export interface StartInput {
  preset: ProcessingPreset
  options?: Record<string, unknown>
  nodeId?: number
  /** Go on although the photo check found problems (recorded on the job). */
  acceptWarnings?: boolean
  /** Complete the project once the results' viewing copies are ready (default: the admin setting). */
  deliverWhenDone?: boolean
  /** What its outputs do to the project's earlier processing outputs (default: replace them). */
  outputs?: JobOutputs
}

export function activeJobOf(projectId: number, db: DbOrTx) {
  return db
    .select({ id: processingJobs.id })
    .from(processingJobs)
    .where(
      and(
        eq(processingJobs.projectId, projectId),
        inArray(processingJobs.status, [...ACTIVE_PROCESSING_STATUSES]),
      ),
    )
    .get()
}

function requireProject(projectId: number, db: DbOrTx) {
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  if (!project) throw new DomainError(404, 'Project not found')
  return project
}

interface NewJob {
  projectId: number
  preset: ProcessingPreset
  options: Record<string, unknown>
  requestedNodeId: number | null
  /** The admin who pressed "Process photos"; null when the pilot's mark started it. */
  createdBy: number | null
  actorId: number
  imagesCount: number
  acceptedWarnings: PhotoProblem[] | null
  deliverWhenDone: boolean
  outputs: JobOutputs
}

export function queueJob(input: NewJob, db: DbOrTx) {
  const job = db.transaction((tx) => {
    // Checked again inside the write: two presses start one job.
    if (activeJobOf(input.projectId, tx)) throw new DomainError(409, PROCESSING_MESSAGES.activeJob)
    const created = tx
      .insert(processingJobs)
      .values({
        projectId: input.projectId,
        preset: input.preset,
        options: input.options,
        requestedNodeId: input.requestedNodeId,
        createdBy: input.createdBy,
        imagesCount: input.imagesCount,
        acceptedWarnings: input.acceptedWarnings,
        deliverWhenDone: input.deliverWhenDone,
        outputs: input.outputs,
        stage: 'Waiting for a processing node',
      })
      .returning()
      .get()
    recordAudit(
      {
        actorId: input.actorId,
        action: 'processing.start',
        entityType: 'processing_job',
        entityId: created.id,
        after: { ...created, automatic: input.createdBy === null },
      },
      tx,
    )
    return created
  })
  processingRunner()?.kick()
  return job
}

/** Queues a job for the project's photos (admins). */
export async function startProcessing(adminId: number, projectId: number, input: StartInput, db = getDb()) {
  requireProject(projectId, db)
  const count = projectPhotosWithoutAccessCheck(projectId, db).length
  if (!count) throw new DomainError(400, PROCESSING_MESSAGES.noPhotos)
  if (activeJobOf(projectId, db)) throw new DomainError(409, PROCESSING_MESSAGES.activeJob)
  if (
    input.nodeId !== undefined &&
    !db.select().from(processingNodes).where(eq(processingNodes.id, input.nodeId)).get()
  )
    throw new DomainError(404, PROCESSING_MESSAGES.unknownNode)
  const accepted = await acceptedPhotoProblems(projectId, input.nodeId ?? null, input.acceptWarnings, db)
  const options = input.options ?? {}
  await validateOptions(options, count, input.nodeId ?? null)
  return queueJob(
    {
      projectId,
      preset: input.preset,
      options,
      requestedNodeId: input.nodeId ?? null,
      createdBy: adminId,
      actorId: adminId,
      imagesCount: count,
      acceptedWarnings: accepted,
      deliverWhenDone: input.deliverWhenDone ?? getDeliverableSettings(db).deliverWhenDone,
      outputs: input.outputs ?? 'replace',
    },
    db,
  )
}

function requireJob(jobId: number, db: DbOrTx) {
  const job = db.select().from(processingJobs).where(eq(processingJobs.id, jobId)).get()
  if (!job) throw new DomainError(404, 'Processing job not found')
  return job
}

/**
 * Cancels an active job at once; the runner tells the node (`/task/cancel`, `/task/remove`).
 * What it imported so far is removed (again by the runner once its step has stopped).
 */
export async function cancelProcessing(adminId: number, jobId: number, db = getDb()) {
  const job = db.transaction((tx) => {
    const found = requireJob(jobId, tx)
    if (!ACTIVE_PROCESSING_STATUSES.includes(found.status))
      throw new DomainError(409, PROCESSING_MESSAGES.notActive)
    const canceled = tx
      .update(processingJobs)
      .set({
        status: 'canceled',
        stage: 'Cancelled',
        cancelRequested: Boolean(found.taskUuid && found.nodeId),
        finishedAt: new Date(),
        nextCheckAt: null,
      })
      .where(eq(processingJobs.id, jobId))
      .returning()
      .get()
    recordAudit(
      { actorId: adminId, action: 'processing.cancel', entityType: 'processing_job', entityId: jobId },
      tx,
    )
    return canceled
  })
  // Its step ends first, so nothing is stored after its outputs are removed.
  await processingRunner()?.abortJob(jobId)
  processingRunner()?.kick()
  await discardJobOutputs(jobId, db)
  return job
}

/** Runs a failed or canceled job again, with new options when given. */
export async function restartProcessing(
  adminId: number,
  jobId: number,
  input: { options?: Record<string, unknown>; outputs?: JobOutputs },
  db = getDb(),
) {
  const found = requireJob(jobId, db)
  if (found.status !== 'failed' && found.status !== 'canceled')
    throw new DomainError(409, PROCESSING_MESSAGES.notRestartable)
  const count = projectPhotosWithoutAccessCheck(found.projectId, db).length
  if (!count) throw new DomainError(400, PROCESSING_MESSAGES.noPhotos)
  const options = input.options ?? found.options
  await validateOptions(options, count, found.requestedNodeId)
  // Its earlier run's outputs never reach the client: gone before it runs again.
  await discardJobOutputs(jobId, db)
  const job = db.transaction((tx) => {
    if (activeJobOf(found.projectId, tx)) throw new DomainError(409, PROCESSING_MESSAGES.activeJob)
    const restarted = tx
      .update(processingJobs)
      .set({
        status: 'queued',
        options,
        stage: 'Waiting for a processing node',
        error: null,
        progressPercent: 0,
        imagesCount: count,
        imagesUploaded: 0,
        resubmits: 0,
        submitAttempts: 0,
        taskUuid: null,
        nodeId: null,
        outputTail: null,
        outputLines: 0,
        skipped: [],
        nodeSeenAt: null,
        nextCheckAt: null,
        startedAt: null,
        finishedAt: null,
        followedUpAt: null,
        followUpNote: null,
        ...(input.outputs ? { outputs: input.outputs } : {}),
      })
      .where(and(eq(processingJobs.id, jobId), inArray(processingJobs.status, ['failed', 'canceled'])))
      .returning()
      .get()
    if (!restarted) throw new DomainError(409, PROCESSING_MESSAGES.notRestartable)
    recordAudit(
      {
        actorId: adminId,
        action: 'processing.restart',
        entityType: 'processing_job',
        entityId: jobId,
        after: { options },
      },
      tx,
    )
    return restarted
  })
  processingRunner()?.kick()
  return job
}

export function jobOutput(jobId: number, db = getDb()) {
  return { lines: requireJob(jobId, db).outputTail ?? [] }
}

export function hashSecret(secret: string) {
  return crypto.createHash('sha256').update(secret).digest('hex')
}

/** The node's webhook: with the job's secret, the job is looked at now; otherwise nothing happens. */
export function webhookPrompt(jobId: number, secret: string, db = getDb()) {
  const job = Number.isInteger(jobId)
    ? db.select().from(processingJobs).where(eq(processingJobs.id, jobId)).get()
    : undefined
  if (!job?.webhookSecretHash || !ACTIVE_PROCESSING_STATUSES.includes(job.status)) return false
  const given = Buffer.from(hashSecret(secret), 'hex')
  const kept = Buffer.from(job.webhookSecretHash, 'hex')
  if (given.length !== kept.length || !crypto.timingSafeEqual(given, kept)) return false
  db.update(processingJobs).set({ nextCheckAt: new Date() }).where(eq(processingJobs.id, jobId)).run()
  processingRunner()?.kick()
  return true
}

type JobRow = ProcessingJob & { nodeLabel: string | null }

function withNodes(db: DbOrTx) {
  return db
    .select({ job: processingJobs, nodeLabel: processingNodes.label })
    .from(processingJobs)
    .leftJoin(processingNodes, eq(processingNodes.id, processingJobs.nodeId))
}

function deliverableIdsOf(jobIds: number[], db: DbOrTx) {
  const map = new Map<number, number[]>()
  if (!jobIds.length) return map
  const rows = db
    .select({ id: projectFiles.id, jobId: projectFiles.processingJobId })
    .from(projectFiles)
    .where(and(inArray(projectFiles.processingJobId, jobIds), isNull(projectFiles.removedAt)))
    .orderBy(projectFiles.id)
    .all()
  for (const r of rows) map.set(r.jobId!, [...(map.get(r.jobId!) ?? []), r.id])
  return map
}

/** The API shape of a job (`GET /api/projects/{id}/processing`). */
function toJobView(job: JobRow, deliverableIds: number[] = [], outputsState: OutputsState = null) {
  return {
    id: job.id,
    projectId: job.projectId,
    status: job.status,
    progressPercent: job.progressPercent,
    stage: job.stage,
    imagesCount: job.imagesCount,
    imagesUploaded: job.imagesUploaded,
    nodeLabel: job.nodeLabel,
    preset: job.preset,
    options: job.options,
    engineVersion: job.engineVersion,
    resubmits: job.resubmits,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    error: job.error,
    deliverableIds,
    /** Products of the node's archive left out, and why (admins only). */
    skipped: job.skipped,
    deliverWhenDone: job.deliverWhenDone,
    awaitingDelivery: awaitingDelivery(job),
    acceptedWarnings: job.acceptedWarnings,
    followUpNote: job.followUpNote,
    /** Replace the project's earlier processing outputs when published, or add to them. */
    outputs: job.outputs,
    publishedAt: job.publishedAt?.toISOString() ?? null,
    /** A completed job's outputs: published, still getting their viewing copies, or held by a failed one. */
    outputsState,
  }
}

/** One job as the admin's answers show it. */
export function jobView(jobId: number, db = getDb()) {
  const row = withNodes(db).where(eq(processingJobs.id, jobId)).get()
  if (!row) throw new DomainError(404, 'Processing job not found')
  return toJobView(
    { ...row.job, nodeLabel: row.nodeLabel },
    deliverableIdsOf([jobId], db).get(jobId),
    outputsStates([row.job], db).get(jobId),
  )
}

/** The project's jobs, newest first: its client, its assigned pilot and admins (404 for anyone else). */
export function projectJobs(user: Pick<User, 'id' | 'role'>, projectId: number, db = getDb()) {
  return projectProcessing(user, projectId, db).jobs
}

/** The project (access checked once) with its jobs as the user may read them. */
export function projectProcessing(user: Pick<User, 'id' | 'role'>, projectId: number, db = getDb()) {
  const project = requireVisibleProject(user, projectId, db)
  return { project, jobs: jobViewsOfProject(projectId, db).map((job) => forRole(user.role, job)) }
}

/** The project's jobs (the newest 50) as an admin reads them; no access check: the caller is an admin. */
export function jobViewsOfProject(projectId: number, db: DbOrTx = getDb()) {
  const rows = withNodes(db)
    .where(eq(processingJobs.projectId, projectId))
    .orderBy(desc(processingJobs.id))
    .limit(50)
    .all()
  const ids = deliverableIdsOf(
    rows.map((r) => r.job.id),
    db,
  )
  const states = outputsStates(
    rows.map((r) => r.job),
    db,
  )
  return rows.map((r) =>
    toJobView({ ...r.job, nodeLabel: r.nodeLabel }, ids.get(r.job.id), states.get(r.job.id)),
  )
}

/**
 * What each role reads of a job: the node's options and engine, and the outputs' state, are the
 * admin's; others read plain stages (never a node's URL, task or message); a client never reads
 * the node's words; outputs not published are no one else's.
 */
function forRole(role: User['role'], job: ReturnType<typeof toJobView>) {
  if (role === 'admin') return job
  const {
    options: _options,
    engineVersion: _engine,
    resubmits: _resubmits,
    skipped: _skipped,
    acceptedWarnings: _accepted,
    followUpNote: _note,
    outputs: _outputs,
    outputsState: _state,
    ...rest
  } = job
  const shared = {
    ...rest,
    stage: plainStage(job.stage, job.status),
    deliverableIds: job.publishedAt ? job.deliverableIds : [],
  }
  return role === 'client' ? { ...shared, nodeLabel: null, error: null } : shared
}

/** Every job, newest first, with its project's name (the admin's list). */
export function listAllJobs(limit = 100, db = getDb()) {
  return db
    .select({ job: processingJobs, nodeLabel: processingNodes.label, projectName: projects.name })
    .from(processingJobs)
    .leftJoin(processingNodes, eq(processingNodes.id, processingJobs.nodeId))
    .innerJoin(projects, eq(projects.id, processingJobs.projectId))
    .orderBy(desc(processingJobs.id))
    .limit(limit)
    .all()
    .map((r) => ({ ...toJobView({ ...r.job, nodeLabel: r.nodeLabel }), projectName: r.projectName }))
}

/** Each project's latest processing job, for the client's project cards (one query). */
export function latestProcessingOf(projectIds: number[], db = getDb()) {
  const out: Record<number, LatestProcessing> = {}
  if (!projectIds.length) return out
  const rows = db
    .select({
      projectId: processingJobs.projectId,
      status: processingJobs.status,
      progressPercent: processingJobs.progressPercent,
      deliverWhenDone: processingJobs.deliverWhenDone,
      followedUpAt: processingJobs.followedUpAt,
      followUpNote: processingJobs.followUpNote,
    })
    .from(processingJobs)
    .where(inArray(processingJobs.projectId, projectIds))
    .orderBy(processingJobs.id)
    .all()
  for (const r of rows)
    out[r.projectId] = {
      status: r.status,
      progressPercent: r.progressPercent,
      delivering: awaitingDelivery(r),
    }
  return out
}

interface LatestProcessing {
  status: ProcessingJob['status']
  progressPercent: number
  /** Completed and being delivered by itself (its viewing copies are made). */
  delivering: boolean
}
