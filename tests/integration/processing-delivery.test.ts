/**
 * From the node to the client with nobody carrying it, against the NodeODM simulator: a job with
 * `deliverWhenDone` completes the project once its viewing copies are ready and the client gets
 * the "survey data ready" mail; without it the admins are told the results wait for their review;
 * a failed job e-mails the admins; the stage is ODM's, in plain words, while it runs; a cancelled
 * job reads Cancelled.
 */
import { startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import { ODM_STAGE_LABELS } from '#app/domain/processing/odm-stages.ts'
import { FOLLOW_UP_NOTES } from '#app/domain/processing/presets.ts'
import type { ProcessingRunner } from '#app/domain/processing/runner-registry.server.ts'
import { startProcessingJobs } from '#app/domain/processing/runner.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as cancelRoute from '#app/routes/api.admin.processing.$jobId.cancel.ts'
import * as startRoute from '#app/routes/api.admin.projects.$projectId.processing.ts'
import * as statusPage from '#app/routes/projects.$projectId.processing.tsx'
import { projects } from '#db/schema.ts'
import { onlyNode, projectWithPhotos } from '#tests/helpers/processing-project.ts'
import { FAST_RUNNER, jobRow, untilJob, withNodeOdmSimulator } from '#tests/helpers/processing-runs.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

const mail = withTestSmtp()

const simulator = withNodeOdmSimulator('delivery', { rasterSize: 64 })
let runner: ProcessingRunner | null = null
let views: ReturnType<typeof startViewJobs> | null = null

afterEach(async () => {
  await runner?.stop()
  await views?.stop()
  runner = null
  views = null
  simulator.setFaults({})
})

type Team = Awaited<ReturnType<typeof projectWithPhotos>>

async function start(team: Team, body: Record<string, unknown>) {
  const id = String(team.project.id)
  const res = await callRoute(startRoute.action, `/api/admin/projects/${id}/processing`, {
    method: 'POST',
    json: body,
    headers: team.admin.headers,
    params: { projectId: id },
  })
  expect(res.status).toBe(201)
  return (await readJson<{ job: { id: number } }>(res)).job.id
}

async function clientPage(team: Team) {
  const id = String(team.project.id)
  const res = await callRoute(statusPage.loader, `/projects/${id}/processing`, {
    headers: team.client.headers,
    params: { projectId: id },
  })
  return readJson<{
    live: boolean
    project: { delivered: boolean }
    jobs: Array<{ status: string; stage: string; delivering: boolean }>
  }>(res)
}

const projectStatus = (id: number) =>
  getDb().select({ status: projects.status }).from(projects).where(eq(projects.id, id)).get()!.status

describe('from the node to the client', () => {
  test(
    'deliverWhenDone: the project completes itself once the viewing copies are ready; the client is e-mailed',
    { timeout: 150_000 },
    async () => {
      await onlyNode(simulator.url)
      const team = await projectWithPhotos(5)
      runner = startProcessingJobs(FAST_RUNNER)
      const jobId = await start(team, { preset: 'fast-orthophoto', deliverWhenDone: true })

      // Completed, the copies not made yet (no view jobs running): waiting to deliver, nobody e-mailed.
      const completed = await untilJob(jobId, (j) => j.status === 'completed')
      expect(completed.followedUpAt).toBeNull()
      expect(projectStatus(team.project.id)).toBe('in_progress')
      expect(await clientPage(team)).toMatchObject({
        live: true,
        project: { delivered: false },
        jobs: [{ status: 'completed', delivering: true }],
      })

      views = startViewJobs()
      const delivered = await untilJob(
        jobId,
        (j) => j.followedUpAt !== null && j.followUpNote !== FOLLOW_UP_NOTES.delivering,
      )
      expect(delivered.followUpNote).toBe(FOLLOW_UP_NOTES.delivered)
      expect(projectStatus(team.project.id)).toBe('completed')
      const sent = await mail.waitFor(
        (m) => m.to.includes(team.client.user.email) && m.subject.startsWith('Your survey data is ready'),
      )
      expect(sent.subject).toBe('Your survey data is ready: Survey of Erf 123')
      expect(await clientPage(team)).toMatchObject({ live: false, project: { delivered: true } })
      // No admin had to review anything.
      expect(mail.messages.filter((m) => m.subject.startsWith('Processed, waiting for your review'))).toEqual(
        [],
      )
    },
  )

  test(
    'without deliverWhenDone: the admins are told the results wait for their review; the client reads it',
    { timeout: 150_000 },
    async () => {
      await onlyNode(simulator.url)
      const team = await projectWithPhotos(5)
      runner = startProcessingJobs(FAST_RUNNER)
      const jobId = await start(team, { preset: 'fast-orthophoto', deliverWhenDone: false })
      const done = await untilJob(jobId, (j) => j.followedUpAt !== null)
      expect(done).toMatchObject({ status: 'completed', followUpNote: FOLLOW_UP_NOTES.awaitingReview })
      const sent = await mail.waitFor(
        (m) =>
          m.to.includes(team.admin.user.email) &&
          m.subject === 'Processed, waiting for your review: Survey of Erf 123',
      )
      expect(sent.text).toContain(`/admin/projects/${team.project.id}/complete`)
      expect(projectStatus(team.project.id)).toBe('in_progress')
      expect(await clientPage(team)).toMatchObject({
        live: false,
        project: { delivered: false },
        jobs: [{ status: 'completed', delivering: false }],
      })
    },
  )

  test(
    'deliverWhenDone on an unpaid project: not delivered; the admins get the reason',
    { timeout: 150_000 },
    async () => {
      await onlyNode(simulator.url)
      const team = await projectWithPhotos(5)
      getDb().update(projects).set({ isPaid: false }).where(eq(projects.id, team.project.id)).run()
      runner = startProcessingJobs(FAST_RUNNER)
      views = startViewJobs()
      const jobId = await start(team, { preset: 'fast-orthophoto', deliverWhenDone: true })
      const done = await untilJob(
        jobId,
        (j) => j.followedUpAt !== null && j.followUpNote !== FOLLOW_UP_NOTES.delivering,
      )
      expect(done.followUpNote).toMatch(/^Not delivered, needs your review: /)
      expect(projectStatus(team.project.id)).toBe('in_progress')
      const sent = await mail.waitFor(
        (m) =>
          m.to.includes(team.admin.user.email) && m.subject.startsWith('Processed, waiting for your review'),
      )
      expect(sent.text).toContain('It was to be delivered by itself, but:')
    },
  )

  test('a failed job e-mails the admins the project and the reason', { timeout: 150_000 }, async () => {
    await onlyNode(simulator.url)
    simulator.setFaults({ fail: 'Not enough overlap between the photos' })
    const team = await projectWithPhotos(5)
    runner = startProcessingJobs(FAST_RUNNER)
    const jobId = await start(team, { preset: 'fast-orthophoto', deliverWhenDone: true })
    const failed = await untilJob(jobId, (j) => j.followedUpAt !== null)
    expect(failed).toMatchObject({ status: 'failed', followUpNote: FOLLOW_UP_NOTES.failureMailed })
    const sent = await mail.waitFor(
      (m) => m.to.includes(team.admin.user.email) && m.subject === 'Processing failed: Survey of Erf 123',
    )
    expect(sent.text).toContain('Not enough overlap between the photos')
    expect(sent.text).toContain(`/admin/projects/${team.project.id}#pd-processing`)
    expect(projectStatus(team.project.id)).toBe('in_progress')
  })

  test(
    'while it runs the stage is ODM’s in plain words; a cancelled job reads Cancelled, not its percentage',
    { timeout: 150_000 },
    async () => {
      await onlyNode(simulator.url)
      simulator.setFaults({ slowSeconds: 8 })
      const team = await projectWithPhotos(5)
      runner = startProcessingJobs(FAST_RUNNER)
      const jobId = await start(team, { preset: 'fast-orthophoto' })
      const labels = Object.values(ODM_STAGE_LABELS)
      const seen = new Set<string>()
      await untilJob(jobId, (j) => {
        if (j.status === 'processing' && j.stage) seen.add(j.stage)
        return j.progressPercent >= 36 && labels.includes(j.stage ?? '')
      })
      const stages = [...seen].filter((s) => labels.includes(s))
      expect(stages.length).toBeGreaterThan(1)
      expect(stages).toContain('Matching the photos (OpenSfM)')
      expect((await clientPage(team)).jobs[0]!.stage).toMatch(
        new RegExp(labels.map((l) => l.replace(/[()]/g, '\\$&')).join('|')),
      )

      const cancel = await callRoute(cancelRoute.action, `/api/admin/processing/${jobId}/cancel`, {
        method: 'POST',
        headers: team.admin.headers,
        params: { jobId: String(jobId) },
      })
      expect(cancel.status).toBe(200)
      expect(jobRow(jobId)).toMatchObject({ status: 'canceled', stage: 'Cancelled' })
      expect(await clientPage(team)).toMatchObject({
        live: false,
        jobs: [{ status: 'canceled', stage: 'Cancelled' }],
      })
    },
  )
})
