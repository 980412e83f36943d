import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileCountsByProject } from '#app/domain/files/file-queries.server.ts'
import { imageTooLargeMessage } from '#app/domain/files/image-pixels.server.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { sweepStorage } from '#app/domain/files/sweep.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as adminUploadRoute from '#app/routes/api.admin.upload-project-file.ts'
import * as clientFilesRoute from '#app/routes/api.client.project-files.$id.ts'
import * as downloadRoute from '#app/routes/api.download-file.$id.ts'
import * as uploadRoute from '#app/routes/api.upload.ts'
import * as dashboardRoute from '#app/routes/dashboard.tsx'
import * as healthRoute from '#app/routes/healthcheck.tsx'
import { projectFiles, type ProjectFile } from '#db/schema.ts'
import { addTestFile, getProject, insertProject, signedInUser } from '#tests/factories.ts'
import { bigPdfBytes, mp4Bytes, multipart, pdfBytes, PNG_BYTES } from '#tests/helpers/files.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

type FileBody = {
  success: boolean
  url: string
  file: { id: number; fileCategory: string; fileType: string; sha256: string; fileSize: number }
  error?: string
  title?: string
}

async function setting() {
  const client = await signedInUser('client')
  const otherClient = await signedInUser('client')
  const pilot = await signedInUser('pilot')
  const otherPilot = await signedInUser('pilot')
  const admin = await signedInUser('admin')
  const project = insertProject({ clientId: client.user.id, pilotId: pilot.user.id })
  return { client, otherClient, pilot, otherPilot, admin, project }
}

async function upload(
  headers: Record<string, string>,
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array; type?: string },
) {
  const res = await callRoute(uploadRoute.action, '/api/upload', { form: multipart(fields, file), headers })
  return { res, body: await readJson<FileBody>(res) }
}

function download(headers: Record<string, string>, id: number, extra: Record<string, string> = {}) {
  return callRoute(downloadRoute.loader, `/api/download-file/${id}?filename=signed.pdf`, {
    headers: { ...headers, ...extra },
    params: { id: String(id) },
  })
}

afterEach(() => {
  delete process.env.MIN_FREE_DISK_MB
  resetEnvCache()
})

describe('POST /api/upload (client documents)', () => {
  test('stores a signed land owner form: row, bytes on disk, SHA-256, flag set; the url downloads the same bytes', async () => {
    const { client, project } = await setting()
    const bytes = await pdfBytes()
    const { res, body } = await upload(
      client.headers,
      { projectId: String(project.id), category: 'land_owner_agreement', directory: 'private' },
      { name: 'Annexure G — signed.pdf', bytes },
    )
    expect(res.status).toBe(201)
    expect(body.url).toMatch(new RegExp(`^/api/download-file/${body.file.id}\\?filename=`))
    expect(body.file).toMatchObject({
      fileCategory: 'land_owner_agreement',
      fileType: 'application/pdf',
      fileSize: bytes.length,
    })
    expect(body.file.sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'))
    const row = getDb().select().from(projectFiles).where(eq(projectFiles.id, body.file.id)).get()!
    const onDisk = path.join(storagePaths().root, row.fileName)
    expect(onDisk.startsWith(path.join(storagePaths().root, 'projects') + path.sep)).toBe(true)
    expect(fs.readFileSync(onDisk).equals(bytes)).toBe(true)
    expect(getProject(project.id).landOwnerFormUploaded).toBe(true)
    expect(fs.readdirSync(storagePaths().tmp)).toEqual([])

    const got = await download(client.headers, body.file.id)
    expect(got.status).toBe(200)
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true)
    expect(got.headers.get('Content-Type')).toBe('application/pdf')
    expect(got.headers.get('ETag')).toBe(`"${body.file.sha256}"`)
    expect(got.headers.get('Content-Disposition')).toBe(
      `attachment; filename="signed.pdf"; filename*=UTF-8''signed.pdf`,
    )
  })

  test('the same bytes under the same name sent again give the stored file back: one row, nothing left over', async () => {
    const { client, project } = await setting()
    const bytes = await pdfBytes()
    const fields = { projectId: String(project.id), category: 'land_owner_agreement' }
    const first = await upload(client.headers, fields, { name: 'signed.pdf', bytes })
    const resent = await upload(client.headers, fields, { name: 'signed.pdf', bytes })
    expect(resent.res.status).toBe(201)
    expect(resent.body.file.id).toBe(first.body.file.id)
    const rows = () => getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()
    expect(rows()).toHaveLength(1)
    expect(fs.readdirSync(path.join(storagePaths().root, 'projects', String(project.id)))).toHaveLength(1)
    expect(fs.readdirSync(storagePaths().tmp)).toEqual([])

    // Another name, or other bytes, is another file.
    const renamed = await upload(client.headers, fields, { name: 'signed copy.pdf', bytes })
    const other = await upload(client.headers, fields, {
      name: 'signed.pdf',
      bytes: await pdfBytes('another'),
    })
    expect(new Set([first.body.file.id, renamed.body.file.id, other.body.file.id]).size).toBe(3)
    // Once retention removed the stored bytes, sending them again stores them anew.
    getDb()
      .update(projectFiles)
      .set({ removedAt: new Date() })
      .where(eq(projectFiles.id, first.body.file.id))
      .run()
    const again = await upload(client.headers, fields, { name: 'signed.pdf', bytes })
    expect(again.body.file.id).not.toBe(first.body.file.id)
    expect(rows()).toHaveLength(4)
  })

  test('the type is read from the content, not the name (415 with the fixed message)', async () => {
    const { client, project } = await setting()
    const { res, body } = await upload(
      client.headers,
      { projectId: String(project.id), category: 'land_owner_agreement' },
      { name: 'agreement.pdf', bytes: Buffer.from('MZ not really a pdf at all'), type: 'application/pdf' },
    )
    expect(res.status).toBe(415)
    expect(body).toMatchObject({
      error: 'Only PDF, DOC, DOCX, JPG, JPEG, PNG files are allowed',
      title: 'Invalid file type',
    })
    expect(
      getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all(),
    ).toHaveLength(0)
    expect(fs.readdirSync(storagePaths().tmp)).toEqual([])
  })

  test('a PNG named .pdf is stored as the PNG it is', async () => {
    const { client, project } = await setting()
    const { res, body } = await upload(
      client.headers,
      { projectId: String(project.id), category: 'land_owner_agreement' },
      { name: 'scan.pdf', bytes: PNG_BYTES },
    )
    expect(res.status).toBe(201)
    expect(body.file.fileType).toBe('image/png')
  })

  test('the land owner form is limited to 10 MB (413, its message)', async () => {
    const { client, project } = await setting()
    const { res, body } = await upload(
      client.headers,
      { projectId: String(project.id), category: 'land_owner_agreement' },
      { name: 'big.pdf', bytes: bigPdfBytes(10 * 1024 * 1024 + 1) },
    )
    expect(res.status).toBe(413)
    expect(body).toMatchObject({ error: 'File size must be less than 10MB', title: 'File too large' })
    expect(fs.readdirSync(storagePaths().tmp)).toEqual([])
  })

  test("another client's project, an unassigned pilot and a visitor are refused (404/404/401)", async () => {
    const { otherClient, otherPilot, project } = await setting()
    const bytes = await pdfBytes()
    const fields = { projectId: String(project.id), category: 'project_document' }
    expect((await upload(otherClient.headers, fields, { name: 'a.pdf', bytes })).res.status).toBe(404)
    expect((await upload(otherPilot.headers, fields, { name: 'a.pdf', bytes })).res.status).toBe(404)
    expect((await upload({}, fields, { name: 'a.pdf', bytes })).res.status).toBe(401)
    expect(
      getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all(),
    ).toHaveLength(0)
  })

  test('a client cannot upload deliverables (403); no file is 400', async () => {
    const { client, project } = await setting()
    const deliverable = await upload(
      client.headers,
      { projectId: String(project.id), category: 'processed_deliverable' },
      { name: 'a.pdf', bytes: await pdfBytes() },
    )
    expect(deliverable.res.status).toBe(403)
    const none = await upload(client.headers, { projectId: String(project.id) })
    expect(none.res.status).toBe(400)
    expect(none.body.error).toBe('Please choose a file to upload')
  })

  test('a multipart type without a boundary is 400, on the API and on the dashboard form', async () => {
    const { client } = await setting()
    const broken = {
      ...client.headers,
      'Content-Type': 'multipart/form-data',
      Origin: 'http://localhost:3999',
    }
    const api = await callRoute(uploadRoute.action, '/api/upload', {
      method: 'POST',
      body: 'x',
      headers: broken,
    })
    expect(api.status).toBe(400)
    const page = await callRoute(dashboardRoute.action, '/dashboard', {
      method: 'POST',
      body: 'x',
      headers: broken,
    })
    expect(page.status).toBeLessThan(500)
  })

  test('507 when the upload would leave less than MIN_FREE_DISK_MB free', async () => {
    const { client, project } = await setting()
    process.env.MIN_FREE_DISK_MB = String(1024 * 1024 * 1024)
    resetEnvCache()
    const { res } = await upload(
      client.headers,
      { projectId: String(project.id) },
      { name: 'a.pdf', bytes: await pdfBytes() },
    )
    expect(res.status).toBe(507)
  })
})

describe('GET/DELETE /api/client/project-files/{id}', () => {
  test('lists the own project, 404 for another client; deleting the agreement clears the flag', async () => {
    const { client, otherClient, project } = await setting()
    const { body } = await upload(
      client.headers,
      { projectId: String(project.id), category: 'land_owner_agreement' },
      { name: 'signed.pdf', bytes: await pdfBytes() },
    )
    const list = await callRoute(clientFilesRoute.loader, `/api/client/project-files/${project.id}`, {
      headers: client.headers,
      params: { id: String(project.id) },
    })
    expect(list.status).toBe(200)
    const files = await readJson<
      Array<{
        id: number
        originalName: string
        fileUrl: string
        fileSize: number
        fileType: string
        fileCategory: string
      }>
    >(list)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatchObject({
      id: body.file.id,
      originalName: 'signed.pdf',
      fileCategory: 'land_owner_agreement',
    })

    const foreign = await callRoute(clientFilesRoute.loader, `/api/client/project-files/${project.id}`, {
      headers: otherClient.headers,
      params: { id: String(project.id) },
    })
    expect(foreign.status).toBe(404)
    const foreignDelete = await callRoute(
      clientFilesRoute.action,
      `/api/client/project-files/${body.file.id}`,
      { method: 'DELETE', headers: otherClient.headers, params: { id: String(body.file.id) } },
    )
    expect(foreignDelete.status).toBe(404)

    const row = getDb().select().from(projectFiles).where(eq(projectFiles.id, body.file.id)).get()!
    const del = await callRoute(clientFilesRoute.action, `/api/client/project-files/${body.file.id}`, {
      method: 'DELETE',
      headers: client.headers,
      params: { id: String(body.file.id) },
    })
    expect(del.status).toBe(200)
    expect(await readJson(del)).toMatchObject({ message: 'Land owner agreement has been deleted' })
    expect(getProject(project.id).landOwnerFormUploaded).toBe(false)
    expect(fs.existsSync(path.join(storagePaths().root, row.fileName))).toBe(false)
  })

  test("a client cannot delete the pilot's media on their project (404)", async () => {
    const { client, pilot, project } = await setting()
    const { storeProjectFile } = await import('#app/domain/files/project-files.server.ts')
    const { Readable } = await import('node:stream')
    const media = await storeProjectFile({
      user: pilot.user,
      projectId: project.id,
      category: 'raw_image',
      originalName: 'DJI_0001.png',
      source: Readable.from([PNG_BYTES]),
    })
    const del = await callRoute(clientFilesRoute.action, `/api/client/project-files/${media.id}`, {
      method: 'DELETE',
      headers: client.headers,
      params: { id: String(media.id) },
    })
    expect(del.status).toBe(404)
  })
})

describe('POST /api/admin/upload-project-file', () => {
  test('a name in UTF-8 is kept as sent (not read as latin1)', async () => {
    const { admin, project } = await setting()
    const name = 'Ré-survey Ōkahu.png'
    const res = await callRoute(adminUploadRoute.action, '/api/admin/upload-project-file', {
      form: multipart(
        { projectId: String(project.id), category: 'processed_deliverable' },
        { name, bytes: PNG_BYTES },
      ),
      headers: admin.headers,
    })
    expect(res.status).toBe(201)
    const { file } = await readJson<{ file: { id: number; originalName: string } }>(res)
    expect(file.originalName).toBe(name)
    const row = getDb().select().from(projectFiles).where(eq(projectFiles.id, file.id)).get()!
    expect(row.originalName).toBe(name)
  })

  test('admin uploads a deliverable; a client or pilot gets 403', async () => {
    const { admin, client, pilot, project } = await setting()
    const form = () =>
      multipart(
        { projectId: String(project.id), category: 'processed_deliverable' },
        { name: 'orthomosaic.png', bytes: PNG_BYTES },
      )
    const ok = await callRoute(adminUploadRoute.action, '/api/admin/upload-project-file', {
      form: form(),
      headers: admin.headers,
    })
    expect(ok.status).toBe(201)
    expect((await readJson<FileBody>(ok)).file.fileCategory).toBe('processed_deliverable')
    for (const who of [client, pilot]) {
      const res = await callRoute(adminUploadRoute.action, '/api/admin/upload-project-file', {
        form: form(),
        headers: who.headers,
      })
      expect(res.status).toBe(403)
    }
  })
})

describe('the pixel budget for camera images', () => {
  /** A real PNG header that declares `width` × `height`: a few bytes claiming gigapixels. */
  function pngDeclaring(width: number, height: number) {
    const png = Buffer.from(PNG_BYTES)
    png.writeUInt32BE(width, 16)
    png.writeUInt32BE(height, 20)
    return png
  }

  test('a PNG declaring 50 000 × 50 000 px is refused as a flight photo or a document (413, nothing stored); a deliverable may be that large', async () => {
    const { admin, client, project } = await setting()
    const huge = pngDeclaring(50_000, 50_000)
    const rowsBefore = getDb().select().from(projectFiles).all().length
    for (const category of ['raw_image', 'project_document']) {
      const res = await callRoute(adminUploadRoute.action, '/api/admin/upload-project-file', {
        form: multipart({ projectId: String(project.id), category }, { name: 'DJI_0001.png', bytes: huge }),
        headers: admin.headers,
      })
      expect(res.status, category).toBe(413)
      expect((await readJson<FileBody>(res)).error).toBe(
        imageTooLargeMessage({ width: 50_000, height: 50_000 }),
      )
    }
    const asClient = await upload(
      client.headers,
      { projectId: String(project.id) },
      { name: 'site.png', bytes: huge },
    )
    expect(asClient.res.status).toBe(413)
    expect(getDb().select().from(projectFiles).all()).toHaveLength(rowsBefore)

    const deliverable = await callRoute(adminUploadRoute.action, '/api/admin/upload-project-file', {
      form: multipart(
        { projectId: String(project.id), category: 'processed_deliverable' },
        { name: 'orthomosaic.png', bytes: huge },
      ),
      headers: admin.headers,
    })
    expect(deliverable.status).toBe(201)
  })

  test('a photo within the budget (10 000 × 10 000 px) is stored', async () => {
    const { admin, project } = await setting()
    const res = await callRoute(adminUploadRoute.action, '/api/admin/upload-project-file', {
      form: multipart(
        { projectId: String(project.id), category: 'raw_image' },
        { name: 'DJI_0002.png', bytes: pngDeclaring(10_000, 10_000) },
      ),
      headers: admin.headers,
    })
    expect(res.status).toBe(201)
  })
})

describe('GET /api/download-file/{id}', () => {
  async function stored() {
    const s = await setting()
    const { body } = await upload(
      s.client.headers,
      { projectId: String(s.project.id), category: 'project_document' },
      { name: 'site notes.pdf', bytes: await pdfBytes('Gate code 1234') },
    )
    return {
      ...s,
      fileId: body.file.id,
      bytes: fs.readFileSync(
        path.join(
          storagePaths().root,
          getDb().select().from(projectFiles).where(eq(projectFiles.id, body.file.id)).get()!.fileName,
        ),
      ),
    }
  }

  test('owner, assigned pilot and admin download; another client, another pilot and a visitor do not', async () => {
    const { client, pilot, admin, otherClient, otherPilot, fileId } = await stored()
    for (const who of [client, pilot, admin]) expect((await download(who.headers, fileId)).status).toBe(200)
    for (const who of [otherClient, otherPilot])
      expect((await download(who.headers, fileId)).status).toBe(404)
    expect((await download({}, fileId)).status).toBe(401)
    expect((await download(admin.headers, 999999)).status).toBe(404)
  })

  test('byte ranges: 206 with the slice, suffix ranges, 416 outside the file, 304 on a matching ETag', async () => {
    const { client, fileId, bytes } = await stored()
    const part = await download(client.headers, fileId, { Range: 'bytes=10-19' })
    expect(part.status).toBe(206)
    expect(part.headers.get('Content-Range')).toBe(`bytes 10-19/${bytes.length}`)
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true)

    const tail = await download(client.headers, fileId, { Range: 'bytes=-5' })
    expect(tail.status).toBe(206)
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 5))).toBe(true)

    const open = await download(client.headers, fileId, { Range: `bytes=${bytes.length - 3}-` })
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(bytes.length - 3))).toBe(true)

    const outside = await download(client.headers, fileId, { Range: `bytes=${bytes.length}-` })
    expect(outside.status).toBe(416)
    expect(outside.headers.get('Content-Range')).toBe(`bytes */${bytes.length}`)

    const etag = (await download(client.headers, fileId)).headers.get('ETag')!
    expect((await download(client.headers, fileId, { 'If-None-Match': etag })).status).toBe(304)
    const stale = await download(client.headers, fileId, { Range: 'bytes=0-1', 'If-Range': '"other"' })
    expect(stale.status).toBe(200)
  })

  test('non-ASCII names use RFC 5987 filename*', async () => {
    const { client, fileId } = await stored()
    const res = await callRoute(
      downloadRoute.loader,
      `/api/download-file/${fileId}?filename=${encodeURIComponent('Plan — Stellenbosch "A".pdf')}`,
      { headers: client.headers, params: { id: String(fileId) } },
    )
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="Plan _ Stellenbosch _A_.pdf"; filename*=UTF-8''Plan%20%E2%80%94%20Stellenbosch%20%22A%22.pdf`,
    )
  })

  test('deliverables: the client only once completed and for one month after; admins always', async () => {
    const { admin, client, pilot, project } = await setting()
    const res = await callRoute(adminUploadRoute.action, '/api/admin/upload-project-file', {
      form: multipart({ projectId: String(project.id) }, { name: 'report.pdf', bytes: await pdfBytes() }),
      headers: admin.headers,
    })
    const id = (await readJson<FileBody>(res)).file.id
    expect((await download(client.headers, id)).status).toBe(404)
    expect((await download(pilot.headers, id)).status).toBe(200)
    const { projects } = await import('#db/schema.ts')
    getDb()
      .update(projects)
      .set({ status: 'completed', completedAt: new Date() })
      .where(eq(projects.id, project.id))
      .run()
    expect((await download(client.headers, id)).status).toBe(200)
    getDb()
      .update(projects)
      .set({ completedAt: new Date(Date.now() - 40 * 24 * 3600_000) })
      .where(eq(projects.id, project.id))
      .run()
    const expired = await download(client.headers, id)
    expect(expired.status).toBe(410)
    expect((await download(admin.headers, id)).status).toBe(200)
  })
})

describe('start-up sweep', () => {
  test('removes half-received files, files without a row and rows without a file', async () => {
    await sweepStorage()
    const { client, project } = await setting()
    const kept = await upload(
      client.headers,
      { projectId: String(project.id), category: 'land_owner_agreement' },
      { name: 'kept.pdf', bytes: await pdfBytes() },
    )
    const lost = await upload(
      client.headers,
      { projectId: String(project.id), category: 'land_owner_agreement' },
      { name: 'lost.pdf', bytes: await pdfBytes() },
    )
    const p = storagePaths()
    fs.writeFileSync(path.join(p.tmp, 'half-received'), 'partial')
    const orphan = path.join(p.projects, String(project.id), 'orphan.pdf')
    fs.writeFileSync(orphan, 'no row points here')
    const lostRow = getDb().select().from(projectFiles).where(eq(projectFiles.id, lost.body.file.id)).get()!
    fs.rmSync(path.join(p.root, lostRow.fileName))
    fs.writeFileSync(path.join(p.tus, 'abc.json'), '{}')

    const result = await sweepStorage()
    expect(result).toEqual({
      tempFilesRemoved: 1,
      orphanFilesRemoved: 1,
      danglingRowsRemoved: 1,
      tusFilesRemoved: 1,
    })
    expect(fs.existsSync(orphan)).toBe(false)
    expect(
      getDb()
        .select()
        .from(projectFiles)
        .where(eq(projectFiles.projectId, project.id))
        .all()
        .map((f) => f.id),
    ).toEqual([kept.body.file.id])
    expect(getProject(project.id).landOwnerFormUploaded).toBe(true)
  })

  test('keeps the 3D view’s still images of projects that exist (the file every restart used to remove), not the others', async () => {
    const { project } = await setting()
    await sweepStorage()
    const stills = path.join(storagePaths().views, 'three-d')
    fs.mkdirSync(stills, { recursive: true })
    const kept = path.join(stills, `${project.id}-0123456789abcdef.png`)
    const gone = path.join(stills, `${project.id + 1000}-0123456789abcdef.png`)
    const stray = path.join(stills, `${project.id}-0123456789abcdef.png.1a2b3c.partial`)
    for (const file of [kept, gone, stray]) fs.writeFileSync(file, PNG_BYTES)
    expect(await sweepStorage()).toMatchObject({ orphanFilesRemoved: 2 })
    expect([kept, gone, stray].map((f) => fs.existsSync(f))).toEqual([true, false, false])
    // A second restart removes nothing.
    expect(await sweepStorage()).toMatchObject({ orphanFilesRemoved: 0 })
  })

  test('leaves rows alone when most files vanish at once (DATA_DIR not mounted)', async () => {
    const { client, project } = await setting()
    for (let i = 0; i < 12; i++)
      await upload(
        client.headers,
        { projectId: String(project.id) },
        { name: `a${i}.pdf`, bytes: await pdfBytes() },
      )
    const before = getDb().select().from(projectFiles).all().length
    fs.rmSync(storagePaths().root, { recursive: true })
    const result = await sweepStorage()
    expect(result.danglingRowsRemoved).toBe(0)
    expect(getDb().select().from(projectFiles).all()).toHaveLength(before)
  })
})

describe('media', () => {
  test('a pilot stores a video on an assigned project; limits follow the content type', async () => {
    const { pilot, project } = await setting()
    const { storeProjectFile } = await import('#app/domain/files/project-files.server.ts')
    const { Readable } = await import('node:stream')
    const video = await storeProjectFile({
      user: pilot.user,
      projectId: project.id,
      category: 'raw_video',
      originalName: 'flight.mp4',
      source: Readable.from([mp4Bytes()]),
    })
    expect(video.fileType).toBe('video/mp4')
    await expect(
      storeProjectFile({
        user: pilot.user,
        projectId: project.id,
        category: 'raw_video',
        originalName: 'flight.mp4',
        source: Readable.from([PNG_BYTES]),
      }),
    ).rejects.toMatchObject({ status: 415, message: 'Only video files are allowed' })
  })
})

describe('/healthcheck', () => {
  test('answers 200 with the free disk space', async () => {
    const res = await callRoute(healthRoute.loader, '/healthcheck')
    expect(res.status).toBe(200)
    const body = await readJson<{ status: string; disk: { freeMb: number; low: boolean } }>(res)
    expect(body.status).toBe('ok')
    expect(body.disk.freeMb).toBeGreaterThan(0)
  })
})

describe('the /dashboard file forms (no JavaScript)', () => {
  test('a multipart post stores the agreement and redirects back; another client is refused; delete-file removes it', async () => {
    const dashboard = await import('#app/routes/dashboard.tsx')
    const { client, otherClient, project } = await setting()
    const url = `/dashboard?tab=projects&view=${project.id}`
    const form = async () =>
      multipart(
        { intent: 'upload-file', projectId: String(project.id), category: 'land_owner_agreement' },
        { name: 'signed.pdf', bytes: await pdfBytes() },
      )

    const refused = await callRoute(dashboard.action, url, {
      form: await form(),
      headers: otherClient.headers,
    })
    expect(refused.status).toBe(302)
    expect(refused.headers.get('Location')).toBe(url)
    expect(
      getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all(),
    ).toHaveLength(0)

    const stored = await callRoute(dashboard.action, url, { form: await form(), headers: client.headers })
    expect(stored.status).toBe(302)
    const rows = getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()
    expect(rows).toHaveLength(1)
    expect(getProject(project.id).landOwnerFormUploaded).toBe(true)

    const foreignDelete = await callRoute(dashboard.action, url, {
      form: { intent: 'delete-file', fileId: String(rows[0]!.id) },
      headers: otherClient.headers,
    })
    expect(foreignDelete.status).toBe(302)
    expect(
      getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all(),
    ).toHaveLength(1)

    const deleted = await callRoute(dashboard.action, url, {
      form: { intent: 'delete-file', fileId: String(rows[0]!.id) },
      headers: client.headers,
    })
    expect(deleted.status).toBe(302)
    expect(
      getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all(),
    ).toHaveLength(0)
    expect(getProject(project.id).landOwnerFormUploaded).toBe(false)
  })
})

describe('the land owner panel’s Remove (no JavaScript)', () => {
  test('removes only an agreement; anything else, or another’s, is “Remove failed”', async () => {
    const { client, otherClient, project } = await setting()
    const url = `/dashboard?tab=projects&view=${project.id}`
    // Both the client's own uploads: a client removes only what they uploaded.
    const [agreement, document] = (['land_owner_agreement', 'project_document'] as const).map((category) => {
      const file = addTestFile(project.id, 'application/pdf', category)
      getDb()
        .update(projectFiles)
        .set({ uploadedBy: client.user.id })
        .where(eq(projectFiles.id, file.id))
        .run()
      return file
    }) as [ProjectFile, ProjectFile]
    const remove = (fileId: number, headers: Record<string, string>) =>
      callRoute(dashboardRoute.action, url, {
        form: { intent: 'remove-land-owner-form', fileId: String(fileId) },
        headers,
      })
    const stillThere = (id: number) =>
      getDb().select().from(projectFiles).where(eq(projectFiles.id, id)).get() !== undefined

    for (const [fileId, headers] of [
      [document.id, client.headers],
      [agreement.id, otherClient.headers],
    ] as const) {
      const refused = await remove(fileId, headers)
      expect(refused.headers.get('Location')).toBe(url)
      expect(await toastOf(refused)).toMatchObject({
        type: 'error',
        title: 'Remove failed',
        description: 'Failed to remove the file',
      })
      expect(stillThere(fileId)).toBe(true)
    }

    const removed = await remove(agreement.id, client.headers)
    expect(await toastOf(removed)).toMatchObject({
      type: 'success',
      title: 'Land owner agreement has been deleted',
    })
    expect(stillThere(agreement.id)).toBe(false)
    expect(stillThere(document.id)).toBe(true)
  })
})

describe('fileCountsByProject', () => {
  test('counts each project’s uploads by kind; a withheld deliverable counts nowhere; a project with no files has zeros', async () => {
    const { client, pilot, project } = await setting()
    const empty = insertProject({ clientId: client.user.id, pilotId: pilot.user.id })
    addTestFile(project.id, 'image/jpeg', 'raw_image')
    addTestFile(project.id, 'image/png', 'raw_image')
    addTestFile(project.id, 'video/mp4', 'raw_video')
    addTestFile(project.id, 'application/pdf', 'land_owner_agreement')
    addTestFile(project.id, 'application/pdf', 'project_document')
    addTestFile(project.id, 'image/tiff', 'processed_deliverable')
    const withheld = addTestFile(project.id, 'image/tiff', 'processed_deliverable')
    getDb().update(projectFiles).set({ withheld: true }).where(eq(projectFiles.id, withheld.id)).run()

    const counts = fileCountsByProject([project.id, empty.id])
    expect(counts.get(project.id)).toEqual({
      images: 2,
      videos: 1,
      documents: 2,
      deliverables: 1,
      landOwnerForm: true,
    })
    expect(counts.get(empty.id)).toEqual({
      images: 0,
      videos: 0,
      documents: 0,
      deliverables: 0,
      landOwnerForm: false,
    })
    expect(fileCountsByProject([]).size).toBe(0)
  })
})
