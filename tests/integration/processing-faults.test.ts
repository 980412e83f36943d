/**
 * The runner against nodes that misbehave: no node online yet (the job waits, never a 409), a
 * node lost mid-run (moved after PROCESSING_NODE_LOST_MINUTES), a node answering 500 at task
 * creation (an attempt, not an endless retry), a cancel during a slow all.zip (aborted at once,
 * the slot freed), an archive too big for the disk or for its photos, and big jobs split.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

// The import stores deliverables, whose viewing copies the pipeline queues.
import '#app/domain/deliverables/pipeline.server.ts'

import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import { addNode, checkNodes, createNode } from '#app/domain/processing/nodes.server.ts'
import type { ProcessingRunner } from '#app/domain/processing/runner-registry.server.ts'
import { startProcessingJobs } from '#app/domain/processing/runner.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as cancelRoute from '#app/routes/api.admin.processing.$jobId.cancel.ts'
import * as startRoute from '#app/routes/api.admin.projects.$projectId.processing.ts'
import * as jobsRoute from '#app/routes/api.projects.$id.processing.ts'
import { processingJobs, processingNodes } from '#db/schema.ts'
import { startFakeNode, type FakeNode } from '#tests/helpers/fake-node.ts'
import { onlyNode, projectWithPhotos } from '#tests/helpers/processing-project.ts'
// This file's tests read the shared wait and end as `until` and `ended`.
import {
  jobEnded as ended,
  FAST_RUNNER,
  jobRow,
  untilJob as until,
  withNodeOdmSimulator,
} from '#tests/helpers/processing-runs.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

import { startNodeOdmSimulator } from '../../server/nodeodm-simulator/index.ts'

const simulator = withNodeOdmSimulator('faults', { rasterSize: 64 })
let runner: ProcessingRunner | null = null
const fakes: FakeNode[] = []

afterEach(async () => {
  await runner?.stop()
  runner = null
  simulator.setFaults({})
  for (const fake of fakes.splice(0)) await fake.close()
  for (const name of [
    'PROCESSING_NODE_LOST_MINUTES',
    'MIN_FREE_DISK_MB',
    'PROCESSING_SPLIT_AT',
    'PROCESSING_SPLIT_PHOTOS',
  ])
    delete process.env[name]
  resetEnvCache()
})

function setEnv(values: Record<string, string>) {
  Object.assign(process.env, values)
  resetEnvCache()
}

async function fakeNode(handlers: Parameters<typeof startFakeNode>[0]) {
  const fake = await startFakeNode(handlers)
  fakes.push(fake)
  return fake
}

function start(
  admin: { headers: Record<string, string> },
  projectId: number,
  body: unknown = { preset: 'fast-orthophoto' },
) {
  return callRoute(startRoute.action, `/api/admin/projects/${projectId}/processing`, {
    method: 'POST',
    json: body,
    headers: admin.headers,
    params: { projectId: String(projectId) },
  })
}

async function startedJob(admin: { headers: Record<string, string> }, projectId: number) {
  const res = await start(admin, projectId)
  expect(res.status).toBe(201)
  return (await readJson<{ job: { id: number; status: string; stage: string } }>(res)).job
}

function cancel(admin: { headers: Record<string, string> }, jobId: number) {
  return callRoute(cancelRoute.action, `/api/admin/processing/${jobId}/cancel`, {
    method: 'POST',
    headers: admin.headers,
    params: { jobId: String(jobId) },
  })
}

/** A job on `nodeId` as the runner leaves it once the node's task completed: its all.zip is next. */
function downloadingJob(projectId: number, createdBy: number, nodeId: number) {
  return getDb()
    .insert(processingJobs)
    .values({
      projectId,
      createdBy,
      nodeId,
      preset: 'fast-orthophoto',
      options: {},
      status: 'downloading',
      taskUuid: 'fake-task',
      stage: 'Downloading results',
      startedAt: new Date(),
      nodeSeenAt: new Date(),
    })
    .returning()
    .get()
}

/** A node row for a fake node, kept out of the picking (disabled): only the seeded job uses it. */
function fakeNodeRow(url: string) {
  const node = createNode(null, { label: 'Fake', url })
  getDb().update(processingNodes).set({ enabled: false }).where(eq(processingNodes.id, node.id)).run()
  return node
}

describe('no node online yet', () => {
  test('the job is queued, waiting for a node (201), and runs once a node is seen', async () => {
    getDb().update(processingNodes).set({ enabled: false }).run()
    // Added, never checked: registered but not seen online.
    createNode(null, { label: 'Simulator', url: simulator.url })
    const { admin, project } = await projectWithPhotos(5)
    const job = await startedJob(admin, project.id)
    expect(job).toMatchObject({ status: 'queued', stage: 'Waiting for a processing node' })
    runner = startProcessingJobs(FAST_RUNNER)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(jobRow(job.id)).toMatchObject({ status: 'queued', stage: 'Waiting for a processing node' })
    await checkNodes()
    expect((await until(job.id, ended)).status).toBe('completed')
  })

  test('409 only when no node is enabled, or none takes that many photos', async () => {
    const node = await onlyNode(simulator.url)
    const { admin, project } = await projectWithPhotos(5)
    getDb().update(processingNodes).set({ maxImages: 4 }).where(eq(processingNodes.id, node.id)).run()
    // The photo check names it first (a problem the admin may accept)…
    const checked = await start(admin, project.id)
    expect(checked.status).toBe(422)
    expect(JSON.stringify(await readJson(checked))).toContain('no processing node takes more than 4')
    // …and accepting it does not make a node take them.
    const accepted = { preset: 'fast-orthophoto', acceptWarnings: true }
    const tooMany = await start(admin, project.id, accepted)
    expect(tooMany.status).toBe(409)
    expect((await readJson(tooMany)).error).toBe('No processing node takes 5 photos at once')
    getDb().update(processingNodes).set({ enabled: false }).run()
    const none = await start(admin, project.id, accepted)
    expect(none.status).toBe(409)
    expect((await readJson(none)).error).toBe('No processing node is enabled: add one under Processing nodes')
  })
})

test(
  'a node lost mid-run: after PROCESSING_NODE_LOST_MINUTES the client reads “Waiting for a processing node”, then another node completes it',
  { timeout: 120_000 },
  async () => {
    setEnv({ PROCESSING_NODE_LOST_MINUTES: '0.01' })
    const dyingDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-lost-'))
    const dying = await startNodeOdmSimulator({
      dataDir: dyingDir,
      faults: { dieMidRun: true },
      rasterSize: 64,
    })
    try {
      const first = await onlyNode(dying.url)
      const { admin, client, project } = await projectWithPhotos(5)
      runner = startProcessingJobs(FAST_RUNNER)
      const job = await startedJob(admin, project.id)
      await until(job.id, (j) => j.status === 'processing' && j.nodeId === first.id)
      // The dead node goes offline at the health check (two minutes of failing).
      await until(job.id, (j) => /trying again/.test(j.stage ?? ''))
      await checkNodes()
      await checkNodes(() => new Date(Date.now() + 3 * 60_000))
      // No node is online now: the lost job, sent again, waits (a spare seen earlier would take it at once).
      const waiting = await until(
        job.id,
        (j) => j.status === 'queued' && j.resubmits === 1 && j.stage === 'Waiting for a processing node',
      )
      expect(waiting).toMatchObject({
        stage: 'Waiting for a processing node',
        progressPercent: 0,
        nodeId: null,
      })
      expect(waiting.outputTail?.at(-1)).toMatch(
        /^\[Kestrel\] Sent again as a new task: the node was unreachable/,
      )
      const seen = await callRoute(jobsRoute.loader, `/api/projects/${project.id}/processing`, {
        headers: client.headers,
        params: { id: String(project.id) },
      })
      const [shown] = (await readJson<{ jobs: Array<{ stage: string; progressPercent: number }> }>(seen)).jobs
      expect(shown).toMatchObject({ stage: 'Waiting for a processing node', progressPercent: 0 })

      // Only the spare is asked (a real-time check of the dead node would count its failing as fresh).
      const spare = await addNode(null, { label: 'Spare', url: simulator.url })
      const finished = await until(job.id, ended)
      expect(finished).toMatchObject({ status: 'completed', nodeId: spare.id, resubmits: 1, error: null })
    } finally {
      await dying.close()
      fs.rmSync(dyingDir, { recursive: true, force: true })
    }
  },
)

test('a node answering 500 at task creation: each answer an attempt, then the job fails', async () => {
  const fake = await fakeNode({
    init: (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' })
      res.end('Internal Server Error')
    },
  })
  await onlyNode(fake.url)
  const { admin, project } = await projectWithPhotos(5)
  runner = startProcessingJobs(FAST_RUNNER)
  const job = await startedJob(admin, project.id)
  const failed = await until(job.id, ended)
  expect(failed.status).toBe('failed')
  expect(failed.error).toMatch(/^The node could not make the task \(4 attempts\): .*answered HTTP 500$/)
  expect(fake.seen.get('POST /task/new/init')).toBe(4)
})

test('cancel during a slow all.zip aborts the download at once and frees the slot for the next job', async () => {
  let closed = false
  const fake = await fakeNode({
    download: (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': String(10 * 1024 * 1024) })
      res.write(Buffer.from('PK\u0003\u0004'))
      // One byte a second: the download never ends by itself.
      const drip = setInterval(() => res.write(Buffer.alloc(1)), 1000)
      res.on('close', () => {
        closed = true
        clearInterval(drip)
      })
    },
  })
  await onlyNode(simulator.url)
  const slow = await projectWithPhotos(5)
  const stuck = downloadingJob(slow.project.id, slow.admin.user.id, fakeNodeRow(fake.url).id)
  runner = startProcessingJobs({ ...FAST_RUNNER, concurrency: 1 })
  const deadline = Date.now() + 20_000
  while (!fake.seen.get(`GET /task/fake-task/download/all.zip`) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const next = await projectWithPhotos(5)
  const waiting = await startedJob(next.admin, next.project.id)
  await new Promise((resolve) => setTimeout(resolve, 300))
  // The one slot is held by the download: the next job waits.
  expect(jobRow(waiting.id).status).toBe('queued')

  const res = await cancel(slow.admin, stuck.id)
  expect(res.status).toBe(200)
  const canceled = await until(stuck.id, (j) => !j.cancelRequested)
  expect(canceled.status).toBe('canceled')
  await until(stuck.id, () => closed, { timeoutMs: 10_000 })
  expect(fs.existsSync(path.join(jobFolder(stuck.id), 'all.zip.partial'))).toBe(false)
  expect((await until(waiting.id, ended)).status).toBe('completed')
  expect(fake.seen.get('POST /task/cancel')).toBe(1)
})

describe('the archive and the disk', () => {
  test('an announced all.zip that would take the disk below MIN_FREE_DISK_MB fails the job with the figures, no retry', async () => {
    const fake = await fakeNode({
      download: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': String(900 * 1024 ** 2) })
        res.write(Buffer.from('PK\u0003\u0004'))
        res.on('close', () => {})
      },
    })
    const { admin, project } = await projectWithPhotos(5)
    // The floor (MIN_FREE_DISK_MB and the 256 MiB margin) 400 MiB below what is free now: 900 MiB cannot fit.
    const free =
      (await fs.promises.statfs(os.tmpdir())).bavail * (await fs.promises.statfs(os.tmpdir())).bsize
    setEnv({ MIN_FREE_DISK_MB: String(Math.floor(free / 1024 ** 2) - 256 - 400) })
    const job = downloadingJob(project.id, admin.user.id, fakeNodeRow(fake.url).id)
    runner = startProcessingJobs(FAST_RUNNER)
    const failed = await until(job.id, ended)
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatch(
      /^all\.zip is 900(,0)?\sMB: .* is free on Kestrel's disk and .* must stay free \(MIN_FREE_DISK_MB and a margin\)$/,
    )
    expect(fake.seen.get('GET /task/fake-task/download/all.zip')).toBe(1)
  })

  test('an all.zip without a length that never ends stops at the cap, failing the job', async () => {
    const fake = await fakeNode({
      download: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/zip' })
        const chunk = Buffer.alloc(16 * 1024)
        const pour = setInterval(() => res.write(chunk), 5)
        res.on('close', () => clearInterval(pour))
      },
    })
    const { admin, project } = await projectWithPhotos(5)
    const job = downloadingJob(project.id, admin.user.id, fakeNodeRow(fake.url).id)
    // The ceiling of every cap, small here; the cap from the photos is tested with the disk rule.
    runner = startProcessingJobs({ ...FAST_RUNNER, maxUnzippedBytes: 256 * 1024 })
    const failed = await until(job.id, ended)
    expect(failed).toMatchObject({ status: 'failed' })
    expect(failed.error).toMatch(/^all\.zip is larger than 256\sKB, the most .* of photos may bring back$/)
    expect(fake.seen.get('GET /task/fake-task/download/all.zip')).toBe(1)
    expect(fs.existsSync(path.join(jobFolder(job.id), 'all.zip.partial'))).toBe(false)
  })
})

describe('big jobs', () => {
  test('above PROCESSING_SPLIT_AT photos the task is sent with split and split-overlap', async () => {
    setEnv({ PROCESSING_SPLIT_AT: '3', PROCESSING_SPLIT_PHOTOS: '10' })
    await onlyNode(simulator.url)
    simulator.setFaults({ slowSeconds: 30 })
    const { admin, project } = await projectWithPhotos(5)
    runner = startProcessingJobs(FAST_RUNNER)
    const job = await startedJob(admin, project.id)
    const running = await until(job.id, (j) => j.status === 'processing')
    const info = (await (await fetch(`${simulator.url}/task/${running.taskUuid}/info`)).json()) as {
      options: Array<{ name: string; value: unknown }>
    }
    expect(info.options).toEqual(
      expect.arrayContaining([
        { name: 'split', value: 10 },
        { name: 'split-overlap', value: 150 },
      ]),
    )
    await cancel(admin, job.id)
  })

  test('at or below it, or with PROCESSING_SPLIT_AT=0, no split', async () => {
    const { splitOptions } = await import('#app/domain/processing/steps/submit.server.ts')
    setEnv({ PROCESSING_SPLIT_AT: '3' })
    expect(splitOptions(3, {})).toEqual({})
    expect(splitOptions(4, { split: 50 })).toEqual({})
    expect(splitOptions(4, { 'split-overlap': 80 })).toEqual({ split: 400 })
    setEnv({ PROCESSING_SPLIT_AT: '0' })
    expect(splitOptions(100_000, {})).toEqual({})
  })

  test('results that would not fit on Kestrel’s disk refuse the job before the photos leave, with the figures', async () => {
    await onlyNode(simulator.url)
    const { admin, project } = await projectWithPhotos(5)
    setEnv({ MIN_FREE_DISK_MB: String(1024 ** 3) })
    runner = startProcessingJobs(FAST_RUNNER)
    const job = await startedJob(admin, project.id)
    const failed = await until(job.id, ended)
    expect(failed).toMatchObject({ status: 'failed', taskUuid: null, imagesUploaded: 0 })
    expect(failed.error).toMatch(
      /^The results of 5 photos need about .* on Kestrel's disk: .* is free and .* must stay free/,
    )
  })
})
