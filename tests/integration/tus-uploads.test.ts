import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { createTusServer, FILE_ID_HEADER, type TusServer } from '#app/domain/files/tus.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { projectFiles } from '#db/schema.ts'
import { getProject, insertProject, signedInUser } from '#tests/factories.ts'
import { mp4Bytes, pdfBytes, PNG_BYTES } from '#tests/helpers/files.ts'
import { tusMetadata } from '#tests/helpers/tus.ts'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'

const BASE = 'http://localhost:3999'
let tus: TusServer

beforeAll(() => {
  tus = createTusServer()
})

function call(method: string, url: string, headers: Record<string, string>, body?: Uint8Array) {
  return tus.server.handleWeb(
    new Request(new URL(url, BASE), {
      method,
      headers: {
        'Tus-Resumable': '1.0.0',
        ...headers,
        ...(body ? { 'Content-Length': String(body.length) } : {}),
      },
      body: body ? new Uint8Array(body) : undefined,
    }),
  )
}

function create(headers: Record<string, string>, meta: Record<string, string>, length: number) {
  return call('POST', '/api/tus', {
    ...headers,
    'Upload-Length': String(length),
    'Upload-Metadata': tusMetadata(meta),
  })
}

function patch(url: string, headers: Record<string, string>, offset: number, chunk: Uint8Array) {
  return call(
    'PATCH',
    url,
    { ...headers, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(offset) },
    chunk,
  )
}

async function setting() {
  const client = await signedInUser('client')
  const pilot = await signedInUser('pilot')
  const otherPilot = await signedInUser('pilot')
  const otherClient = await signedInUser('client')
  const admin = await signedInUser('admin')
  const project = insertProject({ clientId: client.user.id, pilotId: pilot.user.id })
  return { client, pilot, otherPilot, otherClient, admin, project }
}

describe('tus at /api/tus', () => {
  test('create, send half, HEAD tells the offset, send the rest: the file lands in project_files with its SHA-256', async () => {
    const { pilot, project } = await setting()
    const bytes = mp4Bytes(300_000)
    const created = await create(
      pilot.headers,
      {
        filename: 'DJI_0042.MP4',
        filetype: 'video/mp4',
        projectId: String(project.id),
        category: 'raw_video',
      },
      bytes.length,
    )
    expect(created.status).toBe(201)
    const location = created.headers.get('Location')!
    expect(location).toMatch(/^\/api\/tus\/[0-9a-f]+$/)

    const first = await patch(location, pilot.headers, 0, bytes.subarray(0, 100_000))
    expect(first.status).toBe(204)
    expect(first.headers.get('Upload-Offset')).toBe('100000')

    const head = await call('HEAD', location, pilot.headers)
    expect(head.status).toBe(200)
    expect(head.headers.get('Upload-Offset')).toBe('100000')
    expect(head.headers.get('Upload-Length')).toBe(String(bytes.length))

    const wrongOffset = await patch(location, pilot.headers, 0, bytes.subarray(0, 10))
    expect(wrongOffset.status).toBe(409)

    const last = await patch(location, pilot.headers, 100_000, bytes.subarray(100_000))
    expect(last.status).toBe(204)
    const fileId = Number(last.headers.get(FILE_ID_HEADER))
    const row = getDb().select().from(projectFiles).where(eq(projectFiles.id, fileId)).get()!
    expect(row).toMatchObject({
      projectId: project.id,
      fileCategory: 'raw_video',
      fileType: 'video/mp4',
      fileSize: bytes.length,
      uploadedBy: pilot.user.id,
      originalName: 'DJI_0042.MP4',
    })
    expect(row.sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'))
    expect(fs.readFileSync(path.join(storagePaths().root, row.fileName)).equals(bytes)).toBe(true)
    // Nothing of the upload is left in the tus folder, and it can't be resumed any more.
    const id = location.split('/').pop()!
    expect(fs.existsSync(path.join(storagePaths().tus, id))).toBe(false)
    expect(fs.existsSync(path.join(storagePaths().tus, `${id}.json`))).toBe(false)
    expect((await call('HEAD', location, pilot.headers)).status).toBe(404)
  })

  test('a client uploads the land owner agreement through tus; the flag is set', async () => {
    const { client, project } = await setting()
    const bytes = await pdfBytes()
    const created = await create(
      client.headers,
      {
        filename: 'signed.pdf',
        filetype: 'application/pdf',
        projectId: String(project.id),
        category: 'land_owner_agreement',
      },
      bytes.length,
    )
    expect(created.status).toBe(201)
    const done = await patch(created.headers.get('Location')!, client.headers, 0, bytes)
    expect(done.status).toBe(204)
    expect(getProject(project.id).landOwnerFormUploaded).toBe(true)
  })

  test('creation is authorised from the metadata: visitor 401, other pilot/client 404, wrong category 403', async () => {
    const { otherPilot, otherClient, client, pilot, project } = await setting()
    const meta = {
      filename: 'a.png',
      filetype: 'image/png',
      projectId: String(project.id),
      category: 'raw_image',
    }
    expect((await create({}, meta, 100)).status).toBe(401)
    expect((await create(otherPilot.headers, meta, 100)).status).toBe(404)
    expect((await create(otherClient.headers, { ...meta, category: 'project_document' }, 100)).status).toBe(
      404,
    )
    expect((await create(client.headers, meta, 100)).status).toBe(403)
    expect((await create(pilot.headers, { ...meta, category: 'processed_deliverable' }, 100)).status).toBe(
      403,
    )
    expect((await create(pilot.headers, { ...meta, projectId: '999999' }, 100)).status).toBe(404)
    const missing = await create(pilot.headers, { filename: 'a.png', filetype: 'image/png' }, 100)
    expect(missing.status).toBe(400)
  })

  test('declared type and size are checked at creation (415, 413 with the fixed messages)', async () => {
    const { pilot, project } = await setting()
    const wrongType = await create(
      pilot.headers,
      {
        filename: 'a.exe',
        filetype: 'application/x-msdownload',
        projectId: String(project.id),
        category: 'raw_image',
      },
      100,
    )
    expect(wrongType.status).toBe(415)
    expect(JSON.parse(await wrongType.text())).toMatchObject({
      error: 'Only image files are allowed',
      title: 'Invalid file type',
    })
    const tooBig = await create(
      pilot.headers,
      { filename: 'a.png', filetype: 'image/png', projectId: String(project.id), category: 'raw_image' },
      50 * 1024 * 1024 + 1,
    )
    expect(tooBig.status).toBe(413)
    expect(JSON.parse(await tooBig.text())).toMatchObject({
      error: 'File size must be less than 50MB',
      title: 'File too large',
    })
  })

  test('content that is not what it claims is refused at the end and leaves nothing behind', async () => {
    const { pilot, project } = await setting()
    const fake = Buffer.from('this is not a png at all, just text')
    const created = await create(
      pilot.headers,
      { filename: 'a.png', filetype: 'image/png', projectId: String(project.id), category: 'raw_image' },
      fake.length,
    )
    const location = created.headers.get('Location')!
    const done = await patch(location, pilot.headers, 0, fake)
    expect(done.status).toBe(415)
    const id = location.split('/').pop()!
    expect(fs.existsSync(path.join(storagePaths().tus, id))).toBe(false)
    expect(
      getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all(),
    ).toHaveLength(0)
  })

  test('only the uploader may resume, inspect or terminate an upload (others 404); GET is not served', async () => {
    const { pilot, admin, otherPilot, project } = await setting()
    const created = await create(
      pilot.headers,
      { filename: 'a.png', filetype: 'image/png', projectId: String(project.id), category: 'raw_image' },
      PNG_BYTES.length,
    )
    const location = created.headers.get('Location')!
    expect((await call('HEAD', location, otherPilot.headers)).status).toBe(404)
    expect((await call('HEAD', location, admin.headers)).status).toBe(404)
    expect((await patch(location, otherPilot.headers, 0, PNG_BYTES)).status).toBe(404)
    expect((await call('DELETE', location, otherPilot.headers)).status).toBe(404)
    expect((await call('GET', location, pilot.headers)).status).toBe(404)
    const terminated = await call('DELETE', location, pilot.headers)
    expect(terminated.status).toBe(204)
    expect((await call('HEAD', location, pilot.headers)).status).toBe(404)
  })

  test('unfinished uploads expire and the cleanup removes them', async () => {
    const { pilot, project } = await setting()
    const short = createTusServer({ expirationMs: 1 })
    const res = await short.server.handleWeb(
      new Request(`${BASE}/api/tus`, {
        method: 'POST',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Length': '1000',
          'Upload-Metadata': tusMetadata({
            filename: 'a.png',
            filetype: 'image/png',
            projectId: String(project.id),
            category: 'raw_image',
          }),
          ...pilot.headers,
        },
      }),
    )
    expect(res.status).toBe(201)
    expect(res.headers.get('Upload-Expires')).toBeTruthy()
    const id = res.headers.get('Location')!.split('/').pop()!
    await new Promise((r) => setTimeout(r, 10))
    expect(await short.server.cleanUpExpiredUploads()).toBeGreaterThanOrEqual(1)
    expect(fs.existsSync(path.join(storagePaths().tus, id))).toBe(false)
  })
})
