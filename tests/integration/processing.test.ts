/**
 * Photos in, map out, against the NodeODM simulator in-process: a project's photos become
 * deliverables of the right kinds with ready view copies; dropped uploads, a failed task,
 * a lost task, a node that dies mid-run, a Kestrel restart mid-processing, cancel; who may
 * start, cancel and see jobs; the webhook with a wrong secret.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  deliverablesWithoutAccessCheck,
  listDeliverables,
} from '#app/domain/deliverables/deliverables.server.ts'
import { startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import { saveDeliverableSettings } from '#app/domain/deliverables/settings.server.ts'
import { AUTO_START_PRESET } from '#app/domain/processing/auto-start.server.ts'
import { hashSecret } from '#app/domain/processing/jobs.server.ts'
import { checkNodes, createNode } from '#app/domain/processing/nodes.server.ts'
import type { ProcessingRunner } from '#app/domain/processing/runner-registry.server.ts'
import { startProcessingJobs } from '#app/domain/processing/runner.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as cancelRoute from '#app/routes/api.admin.processing.$jobId.cancel.ts'
import * as outputRoute from '#app/routes/api.admin.processing.$jobId.output.ts'
import * as restartRoute from '#app/routes/api.admin.processing.$jobId.restart.ts'
import * as startRoute from '#app/routes/api.admin.projects.$projectId.processing.ts'
import * as webhookRoute from '#app/routes/api.processing.webhook.$jobId.$secret.ts'
import * as jobsRoute from '#app/routes/api.projects.$id.processing.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import { deliverableViews, processingJobs, processingNodes, projectFiles } from '#db/schema.ts'
import { getProject, projectWithTeam, signedInUser } from '#tests/factories.ts'
import { onlyNode, projectWithPhotos } from '#tests/helpers/processing-project.ts'
import {
  FAST_RUNNER,
  jobEnded,
  jobRow,
  untilJob,
  withNodeOdmSimulator,
} from '#tests/helpers/processing-runs.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq, inArray } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

import { startNodeOdmSimulator, type NodeOdmFaults } from '../../server/nodeodm-simulator/index.ts'

const simulator = withNodeOdmSimulator('processing', { rasterSize: 128 })
let runner: ProcessingRunner | null = null

afterEach(async () => {
  await runner?.stop()
  runner = null
  simulator.setFaults({})
})

/** A fast-orthophoto job started by the admin on a project with photos, the simulator (with `faults`) the only node. */
async function fastOrthophotoWith(
  faults: NodeOdmFaults,
  {
    photos = 5,
    runner: timings = FAST_RUNNER,
  }: { photos?: number; runner?: Parameters<typeof startProcessingJobs>[0] } = {},
) {
  await onlyNode(simulator.url)
  simulator.setFaults(faults)
  const { admin, project } = await projectWithPhotos(photos)
  runner = startProcessingJobs(timings)
  const { job } = await readJson<{ job: { id: number } }>(
    await start(admin, project.id, { preset: 'fast-orthophoto' }),
  )
  return { admin, project, job }
}

async function start(
  admin: { headers: Record<string, string> },
  projectId: number,
  body: unknown = { preset: 'standard' },
) {
  return callRoute(startRoute.action, `/api/admin/projects/${projectId}/processing`, {
    method: 'POST',
    json: body,
    headers: admin.headers,
    params: { projectId: String(projectId) },
  })
}

describe('photos in, map out', () => {
  test(
    'a project’s photos become deliverables of the right kinds with ready view copies',
    { timeout: 150_000 },
    async () => {
      await onlyNode(simulator.url)
      const { admin, client, project } = await projectWithPhotos(5)
      runner = startProcessingJobs(FAST_RUNNER)
      const res = await start(admin, project.id)
      expect(res.status).toBe(201)
      const { job } = await readJson<{ job: { id: number; status: string; preset: string } }>(res)
      expect(job).toMatchObject({ status: 'queued', preset: 'standard' })

      const seen: number[] = []
      const finished = await untilJob(job.id, (j) => {
        if (j.status === 'processing') seen.push(j.progressPercent)
        return jobEnded(j)
      })
      expect(finished.error).toBeNull()
      expect(finished.status).toBe('completed')
      expect(finished.progressPercent).toBe(100)
      expect(finished.imagesUploaded).toBe(5)
      // The progress shown never went down.
      expect(seen).toEqual([...seen].sort((a, b) => a - b))

      const files = getDb().select().from(projectFiles).where(eq(projectFiles.processingJobId, job.id)).all()
      const kinds = files.map((f) => `${f.originalName}:${f.deliverableKind}`)
      expect(kinds).toEqual(
        expect.arrayContaining([
          'Orthomosaic.tif:orthomosaic',
          'DSM - surface model.tif:elevation',
          'DTM - terrain model.tif:elevation',
          'Processing report.pdf:report',
          'Camera positions.geojson:vector',
        ]),
      )
      expect(files.some((f) => f.deliverableKind === 'point_cloud')).toBe(true)
      expect(files.every((f) => f.fileCategory === 'processed_deliverable')).toBe(true)

      // Held until their viewing copies are made: no one but an admin's files list sees them yet.
      expect(jobRow(job.id).publishedAt).toBeNull()
      expect(listDeliverables(admin.user, project.id)).toEqual([])

      // The existing view jobs make the COGs of the rasters; then the outputs are published.
      const views = startViewJobs()
      await views.idle()
      await views.stop()
      await untilJob(job.id, (j) => j.publishedAt !== null)
      expect(
        listDeliverables(admin.user, project.id)
          .map((d) => d.id)
          .sort(),
      ).toEqual(files.map((f) => f.id).sort())
      const rasters = files.filter((f) => f.fileType === 'image/tiff').map((f) => f.id)
      const ready = getDb()
        .select()
        .from(deliverableViews)
        .where(inArray(deliverableViews.fileId, rasters))
        .all()
      expect(ready.map((v) => v.status)).toEqual(rasters.map(() => 'ready'))

      // The client sees the finished job and its deliverables, not the node (its options, name or words).
      const list = await callRoute(jobsRoute.loader, `/api/projects/${project.id}/processing`, {
        headers: client.headers,
        params: { id: String(project.id) },
      })
      const { jobs } = await readJson<{ jobs: Array<Record<string, unknown>> }>(list)
      expect(jobs[0]).toMatchObject({
        id: job.id,
        status: 'completed',
        progressPercent: 100,
        stage: 'Completed',
        nodeLabel: null,
      })
      expect(jobs[0]!.deliverableIds).toEqual(files.map((f) => f.id))
      expect(jobs[0]).not.toHaveProperty('options')
      // The node was freed.
      const taskInfo = await fetch(`${simulator.url}/task/${finished.taskUuid}/info`)
      expect(await taskInfo.json()).toMatchObject({ error: expect.stringMatching(/not found/) })
    },
  )

  test(
    'the pilot’s “Photo Upload Finished” starts a Standard job only when the setting is on; each deliverable notes its job',
    { timeout: 150_000 },
    async () => {
      const node = await onlyNode(simulator.url)
      const { admin, pilot, project } = await projectWithPhotos(5)
      const mark = (who: { headers: Record<string, string> }) =>
        callRoute(dashboard.action, '/dashboard', {
          headers: who.headers,
          form: { intent: 'photos-uploaded', projectId: String(project.id) },
        })
      const jobsOf = () =>
        getDb().select().from(processingJobs).where(eq(processingJobs.projectId, project.id)).all()

      // Off (the default): noted on the project, nothing queued.
      expect((await mark(pilot)).status).toBe(302)
      expect(getProject(project.id).photosUploadedAt).toBeInstanceOf(Date)
      expect(jobsOf()).toEqual([])

      // Another pilot's mark is a 404 and starts nothing.
      const other = await signedInUser('pilot')
      expect((await mark(other)).status).toBe(404)

      saveDeliverableSettings(admin.user.id, { autoProcessPhotos: true })
      try {
        const res = await mark(pilot)
        expect(res.status).toBe(302)
        const [job] = jobsOf()
        expect(job).toMatchObject({
          preset: AUTO_START_PRESET,
          createdBy: null,
          imagesCount: 5,
          status: 'queued',
        })
        expect(AUTO_START_PRESET).toBe('standard')
        // Marked again while it runs: still one job.
        expect((await mark(pilot)).status).toBe(302)
        expect(jobsOf()).toHaveLength(1)

        runner = startProcessingJobs(FAST_RUNNER)
        const finished = await untilJob(job!.id, jobEnded)
        expect(finished.status).toBe('completed')
        const views = startViewJobs()
        await views.idle()
        await views.stop()
        await untilJob(job!.id, (j) => j.publishedAt !== null)
        const files = getDb()
          .select()
          .from(projectFiles)
          .where(eq(projectFiles.processingJobId, job!.id))
          .all()
        expect(files.length).toBeGreaterThan(3)
        for (const file of files) {
          expect(file.processingNote).toMatchObject({
            jobId: job!.id,
            nodeLabel: node.label,
            preset: 'standard',
            options: { dsm: true, dtm: true, cog: true },
            engineVersion: expect.any(String),
            processingMs: expect.any(Number),
            imagesCount: 5,
          })
        }
        // Beside each deliverable: the admin reads the node, its engine and options; the client only how it was made.
        const asAdmin = listDeliverables(admin.user, project.id)
        // (A client's list shows deliverables once the project is completed; this is what it holds.)
        const asClient = deliverablesWithoutAccessCheck(project.id, getDb(), { audience: 'others' })
        expect(asAdmin.find((d) => d.id === files[0]!.id)!.processing).toMatchObject({
          preset: 'standard',
          imagesCount: 5,
          nodeLabel: node.label,
          engineVersion: expect.stringContaining('simulated'),
          simulated: true,
          options: { dsm: true },
        })
        expect(asClient.find((d) => d.id === files[0]!.id)!.processing).toEqual({
          preset: 'standard',
          imagesCount: 5,
          processingMs: expect.any(Number),
          simulated: true,
          nodeLabel: null,
          engineVersion: null,
          options: null,
        })
      } finally {
        saveDeliverableSettings(admin.user.id, { autoProcessPhotos: false })
      }
    },
  )

  test('half of the uploads dropped with 500s still completes', { timeout: 150_000 }, async () => {
    const { job } = await fastOrthophotoWith({ dropUploads: true }, { photos: 6 })
    const finished = await untilJob(job.id, jobEnded)
    expect(finished.error).toBeNull()
    expect(finished.status).toBe('completed')
    expect(finished.imagesUploaded).toBe(6)
  })

  test(
    'a failed task shows the node’s message and last lines; a restart with changed options completes',
    { timeout: 150_000 },
    async () => {
      const { admin, job } = await fastOrthophotoWith({
        fail: 'Not enough overlap between the photos',
      })
      const failed = await untilJob(job.id, jobEnded)
      expect(failed.status).toBe('failed')
      expect(failed.error).toContain('Not enough overlap between the photos')
      const output = await callRoute(outputRoute.loader, `/api/admin/processing/${job.id}/output`, {
        headers: admin.headers,
        params: { jobId: String(job.id) },
      })
      expect((await readJson<{ lines: string[] }>(output)).lines.length).toBeGreaterThan(0)

      simulator.setFaults({})
      const restarted = await callRoute(restartRoute.action, `/api/admin/processing/${job.id}/restart`, {
        method: 'POST',
        json: { options: { 'orthophoto-resolution': 10 } },
        headers: admin.headers,
        params: { jobId: String(job.id) },
      })
      expect(restarted.status).toBe(200)
      expect((await readJson<{ job: { status: string; options: unknown } }>(restarted)).job).toMatchObject({
        status: 'queued',
        options: { 'orthophoto-resolution': 10 },
      })
      const done = await untilJob(job.id, jobEnded)
      expect(done.status).toBe('completed')
    },
  )

  test(
    'a node that loses its task: sent again as a new task and completed',
    { timeout: 150_000 },
    async () => {
      const { job } = await fastOrthophotoWith({ loseTasks: 1 })
      const finished = await untilJob(job.id, jobEnded)
      expect(finished.error).toBeNull()
      expect(finished.status).toBe('completed')
      expect(finished.resubmits).toBe(1)
    },
  )

  test('a node that keeps losing its task: sent again twice, then failed', { timeout: 150_000 }, async () => {
    const { job } = await fastOrthophotoWith({ loseTasks: true })
    const failed = await untilJob(job.id, jobEnded)
    expect(failed.status).toBe('failed')
    expect(failed.resubmits).toBe(2)
    expect(failed.error).toMatch(/no longer knows the task.*giving up/)
  })

  test(
    'a node that dies mid-run and comes back empty: resubmitted and completed',
    { timeout: 150_000 },
    async () => {
      const dyingDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-dying-'))
      const dying = await startNodeOdmSimulator({
        dataDir: dyingDir,
        faults: { dieMidRun: true },
        rasterSize: 128,
      })
      const port = Number(new URL(dying.url).port)
      await onlyNode(dying.url)
      const { admin, project } = await projectWithPhotos(5)
      runner = startProcessingJobs(FAST_RUNNER)
      const { job } = await readJson<{ job: { id: number } }>(
        await start(admin, project.id, { preset: 'fast-orthophoto' }),
      )
      await untilJob(job.id, (j) => j.status === 'processing')
      // Dead: the job keeps trying (the node is unreachable, not the job's fault)…
      await untilJob(job.id, (j) => /trying again/.test(j.stage ?? ''))
      expect(jobRow(job.id).status).toBe('processing')
      // …and the machine behind the same URL comes back knowing nothing.
      await dying.close()
      const reborn = await startNodeOdmSimulator({
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-reborn-')),
        rasterSize: 128,
        port,
      })
      try {
        const finished = await untilJob(job.id, jobEnded)
        expect(finished.error).toBeNull()
        expect(finished.status).toBe('completed')
        expect(finished.resubmits).toBe(1)
      } finally {
        await reborn.close()
        fs.rmSync(dyingDir, { recursive: true, force: true })
      }
    },
  )

  test('Kestrel restarted mid-processing: the job resumes and completes', { timeout: 150_000 }, async () => {
    const { job } = await fastOrthophotoWith({ slowSeconds: 2 })
    const mid = await untilJob(job.id, (j) => j.status === 'processing')
    await runner!.stop()
    runner = startProcessingJobs(FAST_RUNNER)
    const finished = await untilJob(job.id, jobEnded)
    expect(finished.status).toBe('completed')
    expect(finished.taskUuid).toBe(mid.taskUuid)
    expect(finished.resubmits).toBe(0)
  })

  test(
    'a node offline past the limit mid-run: the job is sent to another node and completed there',
    { timeout: 150_000 },
    async () => {
      const dyingDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-offline-'))
      const dying = await startNodeOdmSimulator({
        dataDir: dyingDir,
        faults: { dieMidRun: true },
        rasterSize: 128,
      })
      try {
        getDb().update(processingNodes).set({ enabled: false }).run()
        // Both online with empty queues: the lower id (the one about to die) is picked first.
        const first = createNode(null, { label: 'Dying', url: dying.url })
        const second = createNode(null, { label: 'Spare', url: simulator.url })
        await checkNodes()
        const { admin, project } = await projectWithPhotos(5)
        runner = startProcessingJobs({ ...FAST_RUNNER, offlineResubmitMs: 300 })
        const { job } = await readJson<{ job: { id: number } }>(
          await start(admin, project.id, { preset: 'fast-orthophoto' }),
        )
        await untilJob(job.id, (j) => j.status === 'processing' && j.nodeId === first.id)
        await untilJob(job.id, (j) => /trying again/.test(j.stage ?? ''))
        // The health check finds the node silent for over two minutes: offline, so no longer picked.
        await checkNodes()
        await checkNodes(() => new Date(Date.now() + 3 * 60_000))
        expect(
          getDb().select().from(processingNodes).where(eq(processingNodes.id, first.id)).get()!.online,
        ).toBe(false)
        const finished = await untilJob(job.id, jobEnded)
        expect(finished.error).toBeNull()
        expect(finished.status).toBe('completed')
        expect(finished.nodeId).toBe(second.id)
        expect(finished.resubmits).toBe(1)
      } finally {
        await dying.close()
        fs.rmSync(dyingDir, { recursive: true, force: true })
      }
    },
  )

  test(
    'a node that is gone when asked is a node fault (409, never a 500); canceling then ignores its silence',
    { timeout: 150_000 },
    async () => {
      const goneDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-gone-'))
      const gone = await startNodeOdmSimulator({ dataDir: goneDir, rasterSize: 128 })
      await onlyNode(gone.url)
      // Stored as online (its last check), but no longer answering.
      await gone.close()
      fs.rmSync(goneDir, { recursive: true, force: true })
      const { admin, project } = await projectWithPhotos(5)
      const withOptions = await start(admin, project.id, {
        preset: 'fast-orthophoto',
        options: { 'orthophoto-resolution': 5 },
      })
      expect(withOptions.status).toBe(409)
      expect((await readJson(withOptions)).error).toBe(
        'No processing node is online that can take this many photos',
      )

      const { job } = await readJson<{ job: { id: number } }>(
        await start(admin, project.id, { preset: 'fast-orthophoto' }),
      )
      runner = startProcessingJobs(FAST_RUNNER)
      const waiting = await untilJob(job.id, (j) => /trying again/.test(j.stage ?? ''))
      expect(waiting.status).toBe('queued')
      const res = await callRoute(cancelRoute.action, `/api/admin/processing/${job.id}/cancel`, {
        method: 'POST',
        headers: admin.headers,
        params: { jobId: String(job.id) },
      })
      expect(res.status).toBe(200)
      const canceled = await untilJob(job.id, (j) => !j.cancelRequested)
      expect(canceled.status).toBe('canceled')
    },
  )

  test(
    'Kestrel restarted mid-upload: the upload goes on from the last batch sent, same task',
    { timeout: 150_000 },
    async () => {
      // Every second upload request fails and is retried after a wait: the upload takes a while.
      // One batch at a time, so the restart comes between two batches (three in flight may all land at once).
      const slowRetries = { ...FAST_RUNNER, retryBaseMs: 400, uploadsInFlight: 1 }
      const { job } = await fastOrthophotoWith(
        { dropUploads: true, slowSeconds: 1 },
        { photos: 6, runner: slowRetries },
      )
      const mid = await untilJob(job.id, (j) => j.status === 'uploading' && j.imagesUploaded >= 2)
      expect(mid.imagesUploaded).toBeLessThan(6)
      await runner!.stop()
      runner = startProcessingJobs(slowRetries)
      const finished = await untilJob(job.id, jobEnded)
      expect(finished.error).toBeNull()
      expect(finished.status).toBe('completed')
      expect(finished.taskUuid).toBe(mid.taskUuid)
      expect(finished.imagesUploaded).toBe(6)
      expect(finished.resubmits).toBe(0)
    },
  )

  test('cancel: canceled at once, the node told, the task removed', { timeout: 150_000 }, async () => {
    const { admin, job } = await fastOrthophotoWith({ slowSeconds: 30 })
    const running = await untilJob(job.id, (j) => j.status === 'processing')
    const res = await callRoute(cancelRoute.action, `/api/admin/processing/${job.id}/cancel`, {
      method: 'POST',
      headers: admin.headers,
      params: { jobId: String(job.id) },
    })
    expect(res.status).toBe(200)
    expect((await readJson<{ job: { status: string } }>(res)).job.status).toBe('canceled')
    await untilJob(job.id, (j) => !j.cancelRequested)
    const info = await fetch(`${simulator.url}/task/${running.taskUuid}/info`)
    expect(await info.json()).toMatchObject({ error: expect.stringMatching(/not found/) })
    // A second cancel: the job has ended.
    const again = await callRoute(cancelRoute.action, `/api/admin/processing/${job.id}/cancel`, {
      method: 'POST',
      headers: admin.headers,
      params: { jobId: String(job.id) },
    })
    expect(again.status).toBe(409)
  })
})

describe('who may do what', () => {
  test('only admins start or cancel; other clients and pilots get 404; bad input is 400/409', async () => {
    const node = await onlyNode(simulator.url)
    const { admin, client, pilot, project } = await projectWithPhotos(5)
    const stranger = await signedInUser('client')
    const otherPilot = await signedInUser('pilot')
    expect((await start(client, project.id)).status).toBe(403)
    expect((await start(pilot, project.id)).status).toBe(403)

    const unknown = await start(admin, project.id, {
      preset: 'standard',
      options: { 'no-such-option': true },
    })
    expect(unknown.status).toBe(400)
    expect((await readJson<{ fieldErrors: Record<string, string[]> }>(unknown)).fieldErrors.options).toEqual([
      'no-such-option: the processing node has no such option',
    ])
    const outOfRange = await start(admin, project.id, {
      preset: 'standard',
      options: { 'orthophoto-resolution': -3 },
    })
    expect(outOfRange.status).toBe(400)
    expect(
      (await readJson<{ fieldErrors: Record<string, string[]> }>(outOfRange)).fieldErrors.options[0],
    ).toMatch(/^orthophoto-resolution: must be/)
    expect((await start(admin, project.id, { preset: 'quick' })).status).toBe(400)
    // A misspelt choice is refused by name, not replaced by the setting's default.
    const misspelt = await start(admin, project.id, { preset: 'standard', deliverWhenComplete: false })
    expect(misspelt.status).toBe(400)
    expect((await readJson(misspelt)).error).toBe("Unrecognized key(s) in object: 'deliverWhenComplete'")
    const empty = await projectWithTeam()
    const noPhotos = await start(admin, empty.project.id)
    expect(noPhotos.status).toBe(400)
    expect((await readJson(noPhotos)).error).toBe('This project has no uploaded photos to process')

    // No runner: the job waits queued.
    const { job } = await readJson<{ job: { id: number } }>(await start(admin, project.id))
    expect((await start(admin, project.id)).status).toBe(409)

    for (const who of [stranger, otherPilot]) {
      const res = await callRoute(jobsRoute.loader, `/api/projects/${project.id}/processing`, {
        headers: who.headers,
        params: { id: String(project.id) },
      })
      expect(res.status).toBe(404)
    }
    for (const who of [client, pilot]) {
      const res = await callRoute(jobsRoute.loader, `/api/projects/${project.id}/processing`, {
        headers: who.headers,
        params: { id: String(project.id) },
      })
      expect(res.status).toBe(200)
      expect((await readJson<{ jobs: Array<{ id: number }> }>(res)).jobs.map((j) => j.id)).toEqual([job.id])
    }
    const clientCancel = await callRoute(cancelRoute.action, `/api/admin/processing/${job.id}/cancel`, {
      method: 'POST',
      headers: client.headers,
      params: { jobId: String(job.id) },
    })
    expect(clientCancel.status).toBe(403)
    expect(jobRow(job.id).status).toBe('queued')

    // Its only node offline: the job waits for it (201, queued); 409s: processing-faults.test.ts.
    getDb().update(processingNodes).set({ online: false }).where(eq(processingNodes.id, node.id)).run()
    const other = await projectWithPhotos(5)
    const waits = await start(admin, other.project.id)
    expect(waits.status).toBe(201)
    expect((await readJson<{ job: { status: string; stage: string } }>(waits)).job).toMatchObject({
      status: 'queued',
      stage: 'Waiting for a processing node',
    })
  })

  test('the webhook with a wrong secret does nothing; with the right one it only prompts a look', async () => {
    await onlyNode(simulator.url)
    const { admin, project } = await projectWithPhotos(5)
    const { job } = await readJson<{ job: { id: number } }>(await start(admin, project.id))
    const later = new Date(Date.now() + 3_600_000)
    getDb()
      .update(processingJobs)
      .set({ webhookSecretHash: hashSecret('right-secret'), nextCheckAt: later, status: 'processing' })
      .where(eq(processingJobs.id, job.id))
      .run()
    const before = jobRow(job.id)
    const hook = (secret: string) =>
      callRoute(webhookRoute.action, `/api/processing/webhook/${job.id}/${secret}`, {
        method: 'POST',
        json: { uuid: 'x', status: { code: 40 } },
        params: { jobId: String(job.id), secret },
      })
    const wrong = await hook('wrong-secret')
    expect(wrong.status).toBe(404)
    expect(jobRow(job.id)).toEqual(before)

    const right = await hook('right-secret')
    expect(right.status).toBe(200)
    const after = jobRow(job.id)
    // Only the next look moved: the status claimed in the body is not trusted.
    expect(after.status).toBe('processing')
    expect(after.nextCheckAt!.getTime()).toBeLessThan(later.getTime())
  })
})

// Faults the simulator offers, named here so a renamed switch fails to compile.
const _faults: NodeOdmFaults = {
  slowSeconds: 0,
  fail: false,
  dropUploads: false,
  loseTasks: false,
  dieMidRun: false,
}
void _faults
