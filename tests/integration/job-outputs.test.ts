/**
 * All or nothing for the client: a processing job's outputs are held from every reader while
 * it runs (list, Map view, share link, download-all, badges, e-mail), published only once it
 * completed and their viewing copies are made (replacing the earlier outputs after the new copies
 * are ready, or added to them), and removed, here and in the bucket, when it fails or is canceled. The runner
 * imports real archives (GDAL-built rasters) with the file store on a real S3-protocol server.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { updateProjectStatus } from '#app/domain/admin/admin-projects.server.ts'
import { completeProject } from '#app/domain/deliverables/complete-project.server.ts'
import { listDeliverables } from '#app/domain/deliverables/deliverables.server.ts'
import { loadMapView } from '#app/domain/deliverables/map-view.server.ts'
import { startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import type { ViewJobRunner } from '#app/domain/deliverables/view-jobs.server.ts'
import { fileCountsByProject, listProjectFiles } from '#app/domain/files/file-queries.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { jobFolder, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { publishJobOutputs } from '#app/domain/processing/job-outputs.server.ts'
import type { ProcessingRunner } from '#app/domain/processing/runner-registry.server.ts'
import { startProcessingJobs } from '#app/domain/processing/runner.server.ts'
import { deliverablesForDownloadAll } from '#app/domain/sharing/download-all.server.ts'
import { openShareViewer } from '#app/domain/sharing/share-access.server.ts'
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { objectStore } from '#app/lib/storage/s3-client.server.ts'
import * as cancelRoute from '#app/routes/api.admin.processing.$jobId.cancel.ts'
import * as outputsRoute from '#app/routes/api.admin.processing.$jobId.outputs.ts'
import * as downloadRoute from '#app/routes/api.download-file.$id.ts'
import * as jobsRoute from '#app/routes/api.projects.$id.processing.ts'
import {
  auditLog,
  deliverableViews,
  processingJobs,
  projectFiles,
  projects,
  storedObjects,
  type JobOutputs,
  type User,
} from '#db/schema.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { withBucketFileStore } from '#tests/helpers/bucket-file-store.ts'
import { FAST_RUNNER, jobRow, untilJob } from '#tests/helpers/processing-runs.ts'
import { buildRaster, flightPlanJson, toCrs } from '#tests/helpers/rasters.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { writeZip, type ZipEntrySpec } from '#tests/helpers/zip-builder.ts'
import { and, eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

const smtp = withTestSmtp()
const LAT = -33.9249
const LNG = 18.4241

const s3 = withBucketFileStore()
let runner: ProcessingRunner | null = null
let views: ViewJobRunner | null = null

afterEach(async () => {
  await runner?.stop()
  await views?.stop()
  runner = null
  views = null
})

/** A 3-band orthomosaic over the project, `burn` its colour, `widthPx` wide (its thumbnail's shape). */
function orthomosaic(burn: number[], widthPx = 64) {
  const [x, y] = toCrs(32734, LNG, LAT)
  return fs.readFileSync(
    buildRaster({
      epsg: 32734,
      ullr: [x - 60, y + 60, x + 60, y - 60],
      widthPx,
      heightPx: 64,
      bands: 3,
      type: 'Byte',
      burn,
    }),
  )
}

const report = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`)

/** A paid project in progress with its survey area, and its client, pilot and admin signed in. */
async function paidProject() {
  const team = await projectWithTeam({ status: 'in_progress' })
  const d = 60 / 111_320
  const ring = [
    { latitude: LAT + d, longitude: LNG - d },
    { latitude: LAT + d, longitude: LNG + d },
    { latitude: LAT - d, longitude: LNG + d },
    { latitude: LAT - d, longitude: LNG - d },
  ]
  getDb()
    .update(projects)
    .set({ flightPlan: flightPlanJson(ring), isPaid: true })
    .where(eq(projects.id, team.project.id))
    .run()
  return team
}

/** A red orthomosaic the import stored for the job, held (not published) until the job ends. */
function heldOrthomosaic(user: Pick<User, 'id' | 'role'>, projectId: number, jobId: number) {
  return storeProjectFile({
    user,
    projectId,
    category: 'processed_deliverable',
    originalName: 'Orthomosaic.tif',
    source: Readable.from([orthomosaic([200, 40, 40])]),
    processingJobId: jobId,
  })
}

/** A job whose node finished: its all.zip is downloaded and the runner imports it next. */
async function downloadedJob(
  projectId: number,
  adminId: number,
  entries: ZipEntrySpec[],
  outputs: JobOutputs = 'replace',
) {
  const job = getDb()
    .insert(processingJobs)
    // Fast orthophoto: an orthomosaic is all the archive must hold.
    .values({
      projectId,
      createdBy: adminId,
      preset: 'fast-orthophoto',
      options: {},
      status: 'importing',
      outputs,
    })
    .returning()
    .get()
  fs.mkdirSync(jobFolder(job.id), { recursive: true })
  await writeZip(path.join(jobFolder(job.id), 'all.zip'), entries)
  return job
}

const outputsOf = (jobId: number) =>
  getDb().select().from(projectFiles).where(eq(projectFiles.processingJobId, jobId)).all()

/** Runs the runner and the viewing copies until the job is published. */
async function publishedRun(jobId: number) {
  runner ??= startProcessingJobs(FAST_RUNNER)
  views ??= startViewJobs()
  await untilJob(jobId, (j) => j.status !== 'importing')
  await views.idle()
  return untilJob(jobId, (j) => j.publishedAt !== null)
}

/** A project delivered from a first job: an orthomosaic and a report, completed, the client e-mailed. */
async function deliveredFromJob() {
  const team = await paidProject()
  const first = await downloadedJob(team.project.id, team.admin.user.id, [
    { name: 'odm_orthophoto/odm_orthophoto.tif', data: orthomosaic([60, 110, 160]) },
    { name: 'odm_report/report.pdf', data: report('first') },
  ])
  await publishedRun(first.id)
  await runner!.stop()
  await views!.stop()
  runner = null
  views = null
  await completeProject(team.admin.user.id, team.project.id)
  await smtp.waitFor((m) => m.to.includes(team.client.user.email))
  await s3.store.idle()
  return { ...team, first, firstFiles: outputsOf(first.id) }
}

/** What the client is shown: the deliverables list and the Map view. */
function clientSees(client: { user: Pick<User, 'id' | 'role'> }, projectId: number) {
  return {
    list: listDeliverables(client.user, projectId),
    map: loadMapView(client.user, projectId),
  }
}

async function bucketKeys() {
  const keys: string[] = []
  for await (const item of objectStore().list()) keys.push(item.key)
  return keys.sort()
}

const viewsDir = (fileId: number) => path.join(storagePaths().views, String(fileId))
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email))

describe('a processing job’s outputs, all or nothing for the client', () => {
  test(
    'while a re-run imports, its outputs are in no list, map, share link, download-all or badge, and not downloadable',
    { timeout: 120_000 },
    async () => {
      const { client, admin, project, firstFiles } = await deliveredFromJob()
      const before = clientSees(client, project.id)
      const share = createShareLink(client.user, project.id, { allowDownload: true })
      const token = share.url.split('/s/')[1]!
      const shared = async () => {
        const { body } = await openShareViewer(token, '127.0.0.9', { countOpen: false })
        return 'files' in body ? body.files.map((f) => f.id) : body
      }
      const sharedBefore = await shared()
      const second = getDb()
        .insert(processingJobs)
        .values({ projectId: project.id, createdBy: admin.user.id, preset: 'standard', options: {} })
        .returning()
        .get()
      getDb()
        .update(processingJobs)
        .set({ status: 'importing' })
        .where(eq(processingJobs.id, second.id))
        .run()
      // The import stores each output as it goes, held for its job.
      const held = await heldOrthomosaic(admin.user, project.id, second.id)

      expect(clientSees(client, project.id)).toEqual(before)
      expect(await shared()).toEqual(sharedBefore)
      expect(deliverablesForDownloadAll(client.user, project.id).files.map((f) => f.id)).toEqual(
        firstFiles.map((f) => f.id),
      )
      expect(fileCountsByProject([project.id]).get(project.id)!.deliverables).toBe(firstFiles.length)
      expect(listProjectFiles(client.user, project.id).map((f) => f.id)).not.toContain(held.id)
      // Its client cannot take it by id; an admin reviews it in the files list and downloads it.
      const download = (headers: Record<string, string>) =>
        callRoute(downloadRoute.loader, `/api/download-file/${held.id}`, {
          headers,
          params: { id: String(held.id) },
        })
      expect((await download(client.headers)).status).toBe(404)
      expect((await download(admin.headers)).status).toBe(200)
      expect(listProjectFiles(admin.user, project.id).find((f) => f.id === held.id)).toMatchObject({
        withheld: true,
      })
      // The client's job list names no file of a job not published.
      const jobs = await readJson<{ jobs: Array<{ id: number; deliverableIds: number[] }> }>(
        await callRoute(jobsRoute.loader, `/api/projects/${project.id}/processing`, {
          headers: client.headers,
          params: { id: String(project.id) },
        }),
      )
      expect(jobs.jobs.find((j) => j.id === second.id)!.deliverableIds).toEqual([])
    },
  )

  test(
    'a completed project processed again whose job fails mid-import: its outputs are removed, here and in the bucket; the client’s list, map and e-mails stay as they were',
    { timeout: 120_000 },
    async () => {
      const { client, admin, project } = await deliveredFromJob()
      const before = clientSees(client, project.id)
      const keysBefore = await bucketKeys()
      const mailsBefore = mailsTo(client.user.email).length
      // Mid-import: its orthomosaic is stored (as the import registers each product, held for the
      // job), its viewing copies made and safe in the bucket; then the rest of the archive cannot be read.
      const second = await downloadedJob(project.id, admin.user.id, [])
      fs.writeFileSync(path.join(jobFolder(second.id), 'all.zip'), 'not a zip archive')
      const partial = await heldOrthomosaic(admin.user, project.id, second.id)
      views = startViewJobs()
      await views.idle()
      await s3.store.idle()
      expect((await bucketKeys()).filter((k) => k.includes(`views/${partial.id}/`)).length).toBeGreaterThan(0)
      runner = startProcessingJobs(FAST_RUNNER)
      const failed = await untilJob(second.id, (j) => j.status === 'failed')
      // The runner removes what the job stored once its step has ended.
      await runner.idle()
      expect(failed.error).toBeTruthy()

      const discarded = getDb()
        .select()
        .from(auditLog)
        .where(
          and(eq(auditLog.action, 'processing.discard-outputs'), eq(auditLog.entityId, String(second.id))),
        )
        .all()
      const removed = discarded.flatMap(
        (entry) =>
          (JSON.parse(entry.before!) as { files: Array<{ id: number; name: string; key: string }> }).files,
      )
      expect(removed.map((f) => f.id)).toEqual([partial.id])
      expect(outputsOf(second.id)).toEqual([])
      await s3.store.idle()
      for (const file of removed) {
        expect(fs.existsSync(path.join(storagePaths().root, file.key))).toBe(false)
        expect(fs.existsSync(viewsDir(file.id))).toBe(false)
        expect(
          getDb().select().from(storedObjects).where(eq(storedObjects.key, file.key)).get(),
        ).toBeUndefined()
        expect(
          getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, file.id)).get(),
        ).toBeUndefined()
      }
      expect(await bucketKeys()).toEqual(keysBefore)
      // The client: the same list and map (no second layer, the same bounds), no mail.
      expect(clientSees(client, project.id)).toEqual(before)
      expect(mailsTo(client.user.email)).toHaveLength(mailsBefore)
    },
  )

  test('a job canceled while it imports: what it stored is removed at once, its viewing copies too', async () => {
    const { client, admin, project } = await deliveredFromJob()
    const before = clientSees(client, project.id)
    const job = await downloadedJob(project.id, admin.user.id, [])
    const stored = await storeProjectFile({
      user: admin.user,
      projectId: project.id,
      category: 'processed_deliverable',
      originalName: 'Orthomosaic.tif',
      source: Readable.from([orthomosaic([200, 40, 40])]),
      processingJobId: job.id,
    })
    const row = outputsOf(job.id)[0]!
    const res = await callRoute(cancelRoute.action, `/api/admin/processing/${job.id}/cancel`, {
      method: 'POST',
      headers: admin.headers,
      params: { jobId: String(job.id) },
    })
    expect(res.status).toBe(200)
    expect(await readJson(res)).toMatchObject({ job: { status: 'canceled', deliverableIds: [] } })
    expect(outputsOf(job.id)).toEqual([])
    expect(fs.existsSync(path.join(storagePaths().root, row.fileName))).toBe(false)
    expect(
      getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, stored.id)).get(),
    ).toBeUndefined()
    expect(clientSees(client, project.id)).toEqual(before)
  })

  test(
    're-run of a completed project (replace): the old deliverables stay until the new viewing copies are ready, then go, here and in the bucket',
    { timeout: 120_000 },
    async () => {
      const { client, admin, project, first, firstFiles } = await deliveredFromJob()
      const before = clientSees(client, project.id)
      const second = await downloadedJob(project.id, admin.user.id, [
        { name: 'odm_orthophoto/odm_orthophoto.tif', data: orthomosaic([200, 40, 40]) },
        { name: 'odm_report/report.pdf', data: report('second') },
      ])
      // The import completes; no viewing copy is made yet, so nothing is published.
      runner = startProcessingJobs(FAST_RUNNER)
      const completed = await untilJob(second.id, (j) => j.status === 'completed')
      expect(completed.outputs).toBe('replace')
      expect(await publishJobOutputs(second.id)).toEqual({ published: false, state: 'copying' })
      expect(jobRow(second.id).publishedAt).toBeNull()
      expect(clientSees(client, project.id)).toEqual(before)
      for (const file of firstFiles)
        expect(fs.existsSync(path.join(storagePaths().root, file.fileName))).toBe(true)
      const ortho = firstFiles.find((f) => f.deliverableKind === 'orthomosaic')!
      expect(fs.existsSync(viewsDir(ortho.id))).toBe(true)
      const asAdmin = await readJson<{ jobs: Array<{ id: number; outputs: string; outputsState: string }> }>(
        await callRoute(jobsRoute.loader, `/api/projects/${project.id}/processing`, {
          headers: admin.headers,
          params: { id: String(project.id) },
        }),
      )
      expect(asAdmin.jobs.find((j) => j.id === second.id)!).toMatchObject({
        outputs: 'replace',
        outputsState: 'copying',
      })

      views = startViewJobs()
      await views.idle()
      await untilJob(second.id, (j) => j.publishedAt !== null)
      const now = clientSees(client, project.id)
      const secondFiles = outputsOf(second.id)
      expect(now.list.map((d) => d.id).sort()).toEqual(secondFiles.map((f) => f.id).sort())
      expect(now.map.layers).toHaveLength(1)
      expect(now.map.layers[0]!.id).toBe(secondFiles.find((f) => f.deliverableKind === 'orthomosaic')!.id)
      expect(outputsOf(first.id)).toEqual([])
      await s3.store.idle()
      const keys = await bucketKeys()
      for (const file of firstFiles) {
        expect(fs.existsSync(path.join(storagePaths().root, file.fileName))).toBe(false)
        expect(keys.some((k) => k.endsWith(file.fileName))).toBe(false)
      }
      expect(fs.existsSync(viewsDir(ortho.id))).toBe(false)
      expect(keys.some((k) => k.includes(`views/${ortho.id}/`))).toBe(false)
      for (const file of secondFiles) expect(keys.some((k) => k.endsWith(file.fileName))).toBe(true)
    },
  )

  test(
    're-run with “add” (chosen through the API while it imports): both jobs’ deliverables are the client’s',
    { timeout: 120_000 },
    async () => {
      const { client, admin, project, firstFiles } = await deliveredFromJob()
      const second = await downloadedJob(project.id, admin.user.id, [
        { name: 'odm_orthophoto/odm_orthophoto.tif', data: orthomosaic([200, 40, 40]) },
      ])
      const choose = (body: unknown) =>
        callRoute(outputsRoute.action, `/api/admin/processing/${second.id}/outputs`, {
          method: 'POST',
          json: body,
          headers: admin.headers,
          params: { jobId: String(second.id) },
        })
      expect((await choose({ outputs: 'sideways' })).status).toBe(400)
      expect((await choose({ outputs: 'add', publishNow: true })).status).toBe(409)
      const chosen = await choose({ outputs: 'add' })
      expect(chosen.status).toBe(200)
      expect(await readJson(chosen)).toMatchObject({
        job: { outputs: 'add', outputsState: null },
        published: false,
      })

      await publishedRun(second.id)
      const ids = listDeliverables(client.user, project.id).map((d) => d.id)
      expect(ids.sort()).toEqual([...firstFiles, ...outputsOf(second.id)].map((f) => f.id).sort())
      expect(loadMapView(client.user, project.id).layers).toHaveLength(2)
      // Published: the choice is settled.
      expect((await choose({ outputs: 'replace' })).status).toBe(409)
    },
  )

  test(
    'the “survey data ready” e-mail’s thumbnail and count come from the current deliverables only, never a failed job’s',
    { timeout: 120_000 },
    async () => {
      const { client, admin, project } = await paidProject()
      const adminActor = admin.user
      /** A job's orthomosaic stored as its import stores it (`wide`: a differently shaped thumbnail). */
      const jobWithOrthomosaic = async (burn: number[], widthPx: number, outputs: JobOutputs) => {
        const job = await downloadedJob(project.id, adminActor.id, [], outputs)
        await storeProjectFile({
          user: adminActor,
          projectId: project.id,
          category: 'processed_deliverable',
          originalName: 'Orthomosaic.tif',
          source: Readable.from([orthomosaic(burn, widthPx)]),
          processingJobId: job.id,
        })
        return { job, ortho: outputsOf(job.id)[0]! }
      }
      // A first job failed mid-import after its wide orthomosaic got its viewing copies (its
      // removal not run yet); the next one completed, its outputs added.
      const failed = await jobWithOrthomosaic([200, 40, 40], 128, 'replace')
      const good = await jobWithOrthomosaic([60, 110, 160], 64, 'add')
      views = startViewJobs()
      await views.idle()
      getDb()
        .update(processingJobs)
        .set({ status: 'failed' })
        .where(eq(processingJobs.id, failed.job.id))
        .run()
      getDb()
        .update(processingJobs)
        .set({ status: 'completed' })
        .where(eq(processingJobs.id, good.job.id))
        .run()
      expect(await publishJobOutputs(good.job.id)).toEqual({ published: true, replaced: 0 })
      const thumbnailOf = (id: number) => {
        const row = getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, id)).get()!
        return fs.statSync(path.join(storagePaths().root, row.thumbnailName!)).size
      }
      const goodOrtho = good.ortho
      expect(thumbnailOf(failed.ortho.id)).not.toBe(thumbnailOf(goodOrtho.id))

      const result = await completeProject(admin.user.id, project.id)
      expect(result.deliverables).toBe(1)
      const mail = await smtp.waitFor((m) => m.to.includes(client.user.email))
      expect(mail.text).toContain('its processed file is ready')
      const inline = mail.attachments.find((a) => a.contentId)!
      expect(inline.size).toBe(thumbnailOf(goodOrtho.id))

      // Reopened and completed again: the same picture.
      await updateProjectStatus(admin.user.id, project.id, 'in_progress', '', { mailClient: false })
      await completeProject(admin.user.id, project.id)
      const again = await smtp.waitFor((m) => m.to.includes(client.user.email) && m !== mail)
      expect(again.attachments.find((a) => a.contentId)!.size).toBe(thumbnailOf(goodOrtho.id))
    },
  )
})
