/**
 * What /api/tus advertises in Tus-Extension is what it serves, over real HTTP through the
 * app server: creation, creation-with-upload, termination and expiration; a
 * deferred length is neither advertised nor accepted (every upload's size is checked when
 * it is created): a request that defers it is a 400 in the /api's error shape, raw over HTTP.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createTusServer, DEFER_LENGTH_MESSAGE, FILE_ID_HEADER } from '#app/domain/files/tus.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { projectFiles } from '#db/schema.ts'
import { insertProject, signedInUser } from '#tests/factories.ts'
import { PNG_BYTES } from '#tests/helpers/files.ts'
import { httpAppForFile } from '#tests/helpers/http-app.ts'
import { createTusUpload, tusMetadata, tusPost } from '#tests/helpers/tus.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const app = httpAppForFile()

async function pilotWithProject() {
  const client = await signedInUser('client')
  const pilot = await signedInUser('pilot')
  const project = insertProject({ clientId: client.user.id, pilotId: pilot.user.id })
  const meta = tusMetadata({
    filename: 'DJI_0001.PNG',
    filetype: 'image/png',
    projectId: String(project.id),
    category: 'raw_image',
  })
  return { pilot, meta }
}

describe('tus extensions over HTTP', () => {
  test('OPTIONS lists only what is served; a deferred length is not among them', async () => {
    const res = await fetch(`${app.base}/api/tus`, {
      method: 'OPTIONS',
      headers: { 'Tus-Resumable': '1.0.0' },
    })
    expect(res.status).toBe(204)
    const extensions = res.headers.get('Tus-Extension')!.split(',')
    expect(extensions).toEqual(
      expect.arrayContaining(['creation', 'creation-with-upload', 'termination', 'expiration']),
    )
    expect(extensions).not.toContain('creation-defer-length')
  })

  test('Upload-Defer-Length, not advertised, is a 400 with the reason, and nothing is created', async () => {
    const { pilot, meta } = await pilotWithProject()
    const res = await tusPost(app.base, {
      ...pilot.headers,
      'Upload-Defer-Length': '1',
      'Upload-Metadata': meta,
    })
    expect(res.status).toBe(400)
    expect(res.headers.get('Location')).toBeNull()
    expect(await res.json()).toEqual({ error: DEFER_LENGTH_MESSAGE })

    // Nor can an upload's length be declared later, in a PATCH.
    const created = await createTusUpload(app.base, pilot.headers, meta)
    const patch = await fetch(new URL(created.headers.get('Location')!, app.base), {
      method: 'PATCH',
      headers: {
        ...pilot.headers,
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Upload-Length': '10',
        'Content-Type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(1),
    })
    expect(patch.status).toBe(400)
    expect(await patch.json()).toEqual({ error: DEFER_LENGTH_MESSAGE })
  })

  test('an unfinished upload expires after the expiration period without a byte, not after its creation', async () => {
    const { pilot, meta } = await pilotWithProject()
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-tus-'))
    const tus = createTusServer({ directory, expirationMs: 1500 })
    const send = (
      init: RequestInit & { headers?: Record<string, string> },
      url = 'http://localhost:3999/api/tus',
    ) =>
      tus.server.handleWeb(
        new Request(url, {
          ...init,
          headers: { ...pilot.headers, 'Tus-Resumable': '1.0.0', ...init.headers },
        }),
      )
    const created = await send({
      method: 'POST',
      headers: { 'Upload-Length': String(PNG_BYTES.length), 'Upload-Metadata': meta },
    })
    expect(created.status).toBe(201)
    const url = new URL(created.headers.get('Location')!, 'http://localhost:3999/api/tus/').href
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const patched = await send(
      {
        method: 'PATCH',
        headers: { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body: new Uint8Array(PNG_BYTES.subarray(0, 10)),
      },
      url,
    )
    expect(patched.status).toBe(204)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    // 2 s after its creation, 1 s after its last byte: still there.
    expect(await tus.server.cleanUpExpiredUploads()).toBe(0)
    expect((await send({ method: 'HEAD' }, url)).headers.get('Upload-Offset')).toBe('10')
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(await tus.server.cleanUpExpiredUploads()).toBe(1)
    expect([404, 410]).toContain((await send({ method: 'HEAD' }, url)).status)
    fs.rmSync(directory, { recursive: true, force: true })
  })

  test('creation-with-upload: the whole file in the POST lands in project_files; expiration is announced', async () => {
    const { pilot, meta } = await pilotWithProject()
    const res = await tusPost(
      app.base,
      {
        ...pilot.headers,
        'Upload-Length': String(PNG_BYTES.length),
        'Upload-Metadata': meta,
        'Content-Type': 'application/offset+octet-stream',
      },
      new Uint8Array(PNG_BYTES),
    )
    expect(res.status).toBe(201)
    expect(res.headers.get('Upload-Offset')).toBe(String(PNG_BYTES.length))
    const row = getDb()
      .select()
      .from(projectFiles)
      .where(eq(projectFiles.id, Number(res.headers.get(FILE_ID_HEADER))))
      .get()
    expect(row?.fileSize).toBe(PNG_BYTES.length)
    // Finished: nothing to resume.
    const head = await fetch(new URL(res.headers.get('Location')!, app.base), {
      method: 'HEAD',
      headers: { ...pilot.headers, 'Tus-Resumable': '1.0.0' },
    })
    expect(head.status).toBe(404)
  })

  test('termination and expiration: an unfinished upload says when it expires and can be deleted', async () => {
    const { pilot, meta } = await pilotWithProject()
    const created = await createTusUpload(app.base, pilot.headers, meta)
    expect(created.status).toBe(201)
    expect(created.headers.get('Upload-Expires')).toBeTruthy()
    const url = new URL(created.headers.get('Location')!, app.base)
    const deleted = await fetch(url, {
      method: 'DELETE',
      headers: { ...pilot.headers, 'Tus-Resumable': '1.0.0' },
    })
    expect(deleted.status).toBe(204)
    const head = await fetch(url, { method: 'HEAD', headers: { ...pilot.headers, 'Tus-Resumable': '1.0.0' } })
    expect(head.status).toBe(404)
  })
})
