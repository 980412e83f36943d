/**
 * 'Complete Project': admin only, at least one processed deliverable,
 * the project becomes completed with completedAt, and the client gets a mail with a
 * link to the deliverables (through a real SMTP server).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { updateProjectStatus } from '#app/domain/admin/admin-projects.server.ts'
import { prepareDeliverable } from '#app/domain/deliverables/pipeline.server.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { surveyDateOf } from '#app/domain/files/survey-dates.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as completeDialog from '#app/routes/admin.projects.$projectId_.complete.tsx'
import * as completeRoute from '#app/routes/api.admin.complete-project.ts'
import * as deliverablesRoute from '#app/routes/api.projects.$id.deliverables.ts'
import * as mapRoute from '#app/routes/projects.$projectId.map.tsx'
import { auditLog, deliverableViews, projectFiles, projects } from '#db/schema.ts'
import {
  addTestFile,
  createTestProject,
  createTestUser,
  signedInUser,
  storeRasterDeliverable,
} from '#tests/factories.ts'
import { multipart, pdfBytes, PNG_BYTES } from '#tests/helpers/files.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const smtp = withTestSmtp()

const complete = (json: unknown, headers: Record<string, string>) =>
  callRoute(completeRoute.action, '/api/admin/complete-project', { json, headers })

describe('POST /api/admin/complete-project', () => {
  test('completes a project with a deliverable and e-mails the client a link to it', async () => {
    const admin = await signedInUser('admin')
    const client = await createTestUser({ role: 'client', firstName: 'Clara' })
    const project = await createTestProject({ clientId: client.id, paid: true, status: 'in_progress' })
    addTestFile(project.id, 'application/pdf', 'processed_deliverable')
    const res = await complete({ projectId: project.id }, admin.headers)
    expect(res.status).toBe(200)
    expect(await readJson(res)).toMatchObject({
      success: true,
      clientNotified: true,
      deliverables: 1,
      project: { status: 'completed' },
    })
    const row = getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
    expect(row.status).toBe('completed')
    expect(row.completedAt).toBeInstanceOf(Date)
    expect(row.clientNotifiedAt).toBeInstanceOf(Date)
    const mail = await smtp.waitFor((m) => m.to.includes(client.email))
    expect(mail.subject).toBe(`Your survey data is ready: ${project.name}`)
    expect(mail.text).toContain(`/dashboard?tab=projects&view=${project.id}`)
    expect(mail.text).toContain('Hi Clara')
  })

  test('the mail links the Map view and shows the first ready orthomosaic’s thumbnail inline (CID)', async () => {
    const admin = await signedInUser('admin')
    const client = await createTestUser({ role: 'client' })
    const project = await createTestProject({ clientId: client.id, paid: true, status: 'in_progress' })
    const ortho = orthomosaicFile(project.id, 'Ortho.tif')
    const dir = path.join(storagePaths().root, 'views', String(ortho.id))
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, 'thumbnail.png'), PNG_BYTES)
    getDb()
      .insert(deliverableViews)
      .values({ fileId: ortho.id, status: 'ready', thumbnailName: `views/${ortho.id}/thumbnail.png` })
      .run()
    expect((await complete({ projectId: project.id }, admin.headers)).status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes(client.email))
    expect(mail.text).toContain(
      `See your survey on the map: http://localhost:3999/projects/${project.id}/map`,
    )
    expect(mail.html).toContain('src="cid:orthomosaic-thumbnail@kestrel"')
    expect(mail.attachments).toEqual([
      expect.objectContaining({
        mimeType: 'image/png',
        contentId: '<orthomosaic-thumbnail@kestrel>',
        size: PNG_BYTES.length,
      }),
    ])
  })

  test('without a ready orthomosaic the mail goes without a picture', async () => {
    const admin = await signedInUser('admin')
    const client = await createTestUser({ role: 'client' })
    const project = await createTestProject({ clientId: client.id, paid: true, status: 'in_progress' })
    addTestFile(project.id, 'application/pdf', 'processed_deliverable')
    expect((await complete({ projectId: project.id }, admin.headers)).status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes(client.email))
    expect(mail.html).not.toContain('cid:')
    expect(mail.attachments).toEqual([])
    expect(mail.text).toContain(`/projects/${project.id}/map`)
  })

  test('needs at least one processed deliverable: 400 with the fixed message, nothing changes', async () => {
    const admin = await signedInUser('admin')
    const project = await createTestProject({ paid: true, status: 'in_progress' })
    addTestFile(project.id, 'image/jpeg') // raw media is not a deliverable
    const res = await complete({ projectId: project.id }, admin.headers)
    expect(res.status).toBe(400)
    expect(await readJson(res)).toMatchObject({
      error: 'Please upload at least one processed file',
      title: 'No files selected',
    })
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.status).toBe(
      'in_progress',
    )
  })

  test('a survey moved back and completed again keeps its first completion (its flight date)', async () => {
    const admin = await signedInUser('admin')
    const project = await createTestProject({ paid: true, status: 'in_progress' })
    addTestFile(project.id, 'application/pdf', 'processed_deliverable')
    expect((await complete({ projectId: project.id }, admin.headers)).status).toBe(200)
    const flown = new Date('2026-11-02T08:30:00Z')
    getDb().update(projects).set({ completedAt: flown }).where(eq(projects.id, project.id)).run()
    await updateProjectStatus(admin.user.id, project.id, 'in_progress', '')
    expect((await complete({ projectId: project.id }, admin.headers)).status).toBe(200)
    const row = getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
    expect(row.status).toBe('completed')
    expect(row.completedAt).toEqual(flown)
    expect(surveyDateOf(row)).toEqual(flown)
  })

  test('409 when already completed or unpaid; 404 unknown; 400 bad body', async () => {
    const admin = await signedInUser('admin')
    const done = await createTestProject({ paid: true, status: 'completed' })
    addTestFile(done.id, 'application/pdf', 'processed_deliverable')
    expect((await complete({ projectId: done.id }, admin.headers)).status).toBe(409)
    const unpaid = await createTestProject({ status: 'pending' })
    addTestFile(unpaid.id, 'application/pdf', 'processed_deliverable')
    expect((await complete({ projectId: unpaid.id }, admin.headers)).status).toBe(409)
    expect((await complete({ projectId: 999999 }, admin.headers)).status).toBe(404)
    for (const body of [{}, { projectId: 'x' }, { projectId: -1 }]) {
      const res = await complete(body, admin.headers)
      expect(res.status).toBe(400)
      expect((await readJson<{ fieldErrors: object }>(res)).fieldErrors).toHaveProperty('projectId')
    }
  })

  test('401 signed out, 403 for a client or a pilot', async () => {
    const project = await createTestProject({ paid: true, status: 'in_progress' })
    addTestFile(project.id, 'application/pdf', 'processed_deliverable')
    expect((await complete({ projectId: project.id }, {})).status).toBe(401)
    expect((await complete({ projectId: project.id }, (await signedInUser('client')).headers)).status).toBe(
      403,
    )
    expect((await complete({ projectId: project.id }, (await signedInUser('pilot')).headers)).status).toBe(
      403,
    )
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.status).toBe(
      'in_progress',
    )
  })
})

/** An orthomosaic deliverable's row named `name` (no file behind it). */
function orthomosaicFile(projectId: number, name: string) {
  const file = addTestFile(projectId, 'image/tiff', 'processed_deliverable')
  getDb()
    .update(projectFiles)
    .set({ deliverableKind: 'orthomosaic', originalName: name })
    .where(eq(projectFiles.id, file.id))
    .run()
  return file
}

/** A paid project with a deliverable whose viewing copy failed in GDAL's words (with a server path). */
async function projectWithFailedCopy() {
  const admin = await signedInUser('admin')
  const client = await signedInUser('client')
  const project = await createTestProject({ clientId: client.user.id, paid: true, status: 'in_progress' })
  const tiff = orthomosaicFile(project.id, 'Broken ortho.tif')
  const gdalSays = `gdalwarp: ERROR 1: TIFFReadDirectory: ${storagePaths().root}/projects/${project.id}/x.tif is truncated`
  getDb().insert(deliverableViews).values({ fileId: tiff.id, status: 'failed', error: gdalSays }).run()
  return { admin, client, project, tiff, gdalSays }
}

describe('a failed viewing copy', () => {
  test('blocks completion (409, nothing changes) until the admin chooses to deliver without it; the choice is audited', async () => {
    const { admin, project, tiff } = await projectWithFailedCopy()
    const refused = await complete({ projectId: project.id }, admin.headers)
    expect(refused.status).toBe(409)
    expect(await readJson(refused)).toMatchObject({
      error: 'The viewing copy of Broken ortho.tif failed. Replace the file, or choose to deliver without it',
      failedFileIds: [tiff.id],
    })
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.status).toBe(
      'in_progress',
    )
    expect(
      (await complete({ projectId: project.id, deliverWithoutFailed: 'yes' }, admin.headers)).status,
    ).toBe(400)
    // A TIFF marked as a kind that never has a map copy does not count as a failure.
    const other = addTestFile(project.id, 'image/tiff', 'processed_deliverable')
    getDb().update(projectFiles).set({ deliverableKind: 'vector' }).where(eq(projectFiles.id, other.id)).run()
    getDb()
      .insert(deliverableViews)
      .values({ fileId: other.id, status: 'failed', error: 'Not a raster kind: no viewing copy is made' })
      .run()
    expect(await readJson(await complete({ projectId: project.id }, admin.headers))).toMatchObject({
      failedFileIds: [tiff.id],
    })
    const done = await complete({ projectId: project.id, deliverWithoutFailed: true }, admin.headers)
    expect(done.status).toBe(200)
    const audit = getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'project.complete'), eq(auditLog.entityId, String(project.id))))
      .get()!
    expect(JSON.parse(audit.after!)).toMatchObject({ deliveredWithoutViewingCopy: [tiff.id] })
  })

  test('the dialog (no JS) lists the failure, refuses with its own toast and completes with the box ticked', async () => {
    const { admin, project, tiff } = await projectWithFailedCopy()
    const params = { projectId: String(project.id) }
    const url = `/admin/projects/${project.id}/complete`
    const data = await readJson<{ failed: Array<{ id: number; name: string }> }>(
      await callRoute(completeDialog.loader, url, { headers: admin.headers, params }),
    )
    expect(data.failed).toEqual([{ id: tiff.id, name: 'Broken ortho.tif' }])
    const refused = await callRoute(completeDialog.action, url, {
      headers: admin.headers,
      params,
      form: { intent: 'complete' },
    })
    expect(await toastOf(refused)).toMatchObject({ title: 'A viewing copy failed', type: 'error' })
    const done = await callRoute(completeDialog.action, url, {
      headers: admin.headers,
      params,
      form: { intent: 'complete', deliverWithoutFailed: 'on' },
    })
    expect((await toastOf(done))?.title).toBe('Project Completed')
  })

  test('the client never reads GDAL’s words or a server path; the admin does', async () => {
    const { admin, client, project, gdalSays } = await projectWithFailedCopy()
    expect(
      (await complete({ projectId: project.id, deliverWithoutFailed: true }, admin.headers)).status,
    ).toBe(200)
    const read = async (headers: Record<string, string>) =>
      callRoute(deliverablesRoute.loader, `/api/projects/${project.id}/deliverables`, {
        headers,
        params: { id: String(project.id) },
      })
    const clientText = await (await read(client.headers)).text()
    expect(clientText).toContain('We couldn’t prepare this file for viewing; our team has been told.')
    expect(clientText).not.toContain('gdalwarp')
    expect(clientText).not.toContain(storagePaths().root)
    const map = await callRoute(mapRoute.loader, `/projects/${project.id}/map`, {
      headers: client.headers,
      params: { projectId: String(project.id) },
    })
    const mapText = await map.text()
    expect(mapText).toContain('our team has been told')
    expect(mapText).not.toContain('gdalwarp')
    expect(await (await read(admin.headers)).text()).toContain(JSON.stringify(gdalSays).slice(1, -1))
  })
})

describe('a viewing copy that fails after delivery', () => {
  test('is e-mailed to the operator with GDAL’s reason; the client reads only the plain sentence', async () => {
    const client = await signedInUser('client')
    const admin = await signedInUser('admin')
    const project = await createTestProject({ clientId: client.user.id, paid: true, status: 'completed' })
    getDb().update(projects).set({ completedAt: new Date() }).where(eq(projects.id, project.id)).run()
    const broken = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-broken-')), 'Broken.tif')
    fs.writeFileSync(broken, Buffer.concat([Buffer.from('II*\0'), Buffer.alloc(200, 7)]))
    const file = await storeRasterDeliverable(project.id, broken, 'orthomosaic', admin.user.id)
    await prepareDeliverable(file.id)
    const view = getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, file.id)).get()!
    expect(view.status).toBe('failed')
    const mail = await smtp.waitFor(
      (m) => m.subject === `Viewing copy failed: Broken.tif (project #${project.id})`,
    )
    expect(mail.to).toContain(getEnv().OPERATOR_EMAIL)
    expect(mail.text).toContain(`GDAL said: ${view.error}`)
    const clientView = await readJson<{ deliverables: Array<{ view: { error: string } }> }>(
      await callRoute(deliverablesRoute.loader, `/api/projects/${project.id}/deliverables`, {
        headers: client.headers,
        params: { id: String(project.id) },
      }),
    )
    expect(clientView.deliverables[0]!.view.error).toBe(
      'We couldn’t prepare this file for viewing; our team has been told. You can still download it.',
    )
  })
})

describe("the admin's Complete Project dialog (page, works without JavaScript)", () => {
  const path = (id: number) => `/admin/projects/${id}/complete`
  test('without a deliverable: No files selected; upload one (multipart), then complete', async () => {
    const admin = await signedInUser('admin')
    const client = await createTestUser({ role: 'client' })
    const project = await createTestProject({ clientId: client.id, paid: true, status: 'in_progress' })
    const params = { projectId: String(project.id) }

    const refused = await callRoute(completeDialog.action, path(project.id), {
      headers: admin.headers,
      params,
      form: { intent: 'complete' },
    })
    expect(refused.status).toBe(302)
    expect(await toastOf(refused)).toMatchObject({
      title: 'No files selected',
      description: 'Please upload at least one processed file',
      type: 'error',
    })

    const pdf = await pdfBytes('Orthomosaic report')
    const uploaded = await callRoute(completeDialog.action, path(project.id), {
      headers: admin.headers,
      params,
      form: multipart(
        { intent: 'upload-file', projectId: String(project.id), category: 'processed_deliverable' },
        { name: 'report.pdf', bytes: pdf, type: 'application/pdf' },
      ),
    })
    expect(await toastOf(uploaded)).toMatchObject({ title: 'Upload successful', description: 'report.pdf' })
    const data = await readJson<{ deliverables: Array<{ originalName: string; fileCategory: string }> }>(
      await callRoute(completeDialog.loader, path(project.id), { headers: admin.headers, params }),
    )
    expect(data.deliverables).toEqual([
      expect.objectContaining({ originalName: 'report.pdf', fileCategory: 'processed_deliverable' }),
    ])

    const done = await callRoute(completeDialog.action, path(project.id), {
      headers: admin.headers,
      params,
      form: { intent: 'complete' },
    })
    expect(done.headers.get('Location')).toBe(`/admin/projects/${project.id}`)
    expect((await toastOf(done))?.title).toBe('Project Completed')
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.status).toBe('completed')
    await smtp.waitFor((m) => m.to.includes(client.email) && m.subject.includes('ready'))
  })

  test('clients and pilots get 403, unknown projects 404', async () => {
    const project = await createTestProject({ paid: true, status: 'in_progress' })
    const params = { projectId: String(project.id) }
    for (const role of ['client', 'pilot'] as const) {
      const { headers } = await signedInUser(role)
      expect(
        (
          await callRoute(completeDialog.action, path(project.id), {
            headers,
            params,
            form: { intent: 'complete' },
          })
        ).status,
      ).toBe(403)
      expect((await callRoute(completeDialog.loader, path(project.id), { headers, params })).status).toBe(403)
    }
    const admin = await signedInUser('admin')
    expect(
      (
        await callRoute(completeDialog.loader, path(999999), {
          headers: admin.headers,
          params: { projectId: '999999' },
        })
      ).status,
    ).toBe(404)
  })
})
