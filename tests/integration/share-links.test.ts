/**
 * Share links (ADR 233): every call × role × bad input, the public viewer and its files
 * (view-only 403, revoked and expired 410, unknown 404, another client 404), the counts,
 * the audit rows, the guess limit, and that the token is never stored in clear.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import * as downloadRoute from '#app/routes/api.download-file.$id.ts'
import * as downloadAllRoute from '#app/routes/api.projects.$id.download-all.ts'
import * as shareLinksRoute from '#app/routes/api.projects.$id.share-links.ts'
import * as revokeRoute from '#app/routes/api.share-links.$id.ts'
import * as sharePageRoute from '#app/routes/projects.$projectId.share.tsx'
import * as shareDownloadAllRoute from '#app/routes/s.$token_.download-all.ts'
import * as shareViewRoute from '#app/routes/s.$token_.files.$fileId_.view.$variant.ts'
import * as shareFileRoute from '#app/routes/s.$token_.files.$fileId.ts'
import * as viewerRoute from '#app/routes/s.$token.tsx'
import { auditLog, deliverableViews, projectFiles, projects, shareLinks, sites } from '#db/schema.ts'
import { deliveredProject, insertProject, storeDeliverable } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq, inArray } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import { describe, expect, test } from 'vitest'

type Created = { id: number; url: string; expiresAt: string; allowDownload: boolean; error?: string }
type ListBody = {
  shareLinks: Array<{
    id: number
    state: string
    openCount: number
    downloadCount: number
    lastOpenedAt: string | null
    fileIds: number[] | null
    fileNames: string[]
  }>
}

function createLink(projectId: number, json: unknown, headers: Record<string, string>) {
  return callRoute(shareLinksRoute.action, `/api/projects/${projectId}/share-links`, {
    json,
    headers,
    params: { id: String(projectId) },
  })
}

function listLinks(projectId: number, headers: Record<string, string>) {
  return callRoute(shareLinksRoute.loader, `/api/projects/${projectId}/share-links`, {
    headers,
    params: { id: String(projectId) },
  })
}

function revoke(id: number | string, headers: Record<string, string>) {
  return callRoute(revokeRoute.action, `/api/share-links/${id}`, {
    method: 'DELETE',
    headers,
    params: { id: String(id) },
  })
}

const tokenOf = (url: string) => url.split('/s/')[1]!

/** A fresh address per call site keeps the guess limit out of tests that don't test it. */
let addressCounter = 0
const freshIp = () => `198.51.100.${(addressCounter++ % 250) + 1}`

function openViewer(token: string, clientIp = freshIp()) {
  return callRoute(viewerRoute.loader, `/s/${token}`, { params: { token }, context: { clientIp } })
}

function fetchShared(token: string, fileId: number, headers: Record<string, string> = {}) {
  return callRoute(shareFileRoute.loader, `/s/${token}/files/${fileId}`, {
    params: { token, fileId: String(fileId) },
    headers,
    context: { clientIp: freshIp() },
  })
}

function linkRow(id: number) {
  return getDb().select().from(shareLinks).where(eq(shareLinks.id, id)).get()!
}

async function madeLink(json: unknown = { allowDownload: true }) {
  const setting = await deliveredProject()
  const res = await createLink(setting.project.id, json, setting.client.headers)
  expect(res.status).toBe(201)
  const body = await readJson<Created>(res)
  return { ...setting, link: body, token: tokenOf(body.url) }
}

describe('POST /api/projects/{id}/share-links', () => {
  test('the client makes a link: 201 with a 256-bit base64url token in the URL; only its SHA-256 is stored; audited', async () => {
    const { client, project } = await deliveredProject()
    const res = await createLink(project.id, { allowDownload: false }, client.headers)
    expect(res.status).toBe(201)
    const body = await readJson<Created>(res)
    expect(body.url).toMatch(/^http:\/\/localhost:3999\/s\/[A-Za-z0-9_-]{43}$/)
    expect(body.allowDownload).toBe(false)
    // Default expiry: 30 days.
    const days = (new Date(body.expiresAt).getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThanOrEqual(30)
    const token = tokenOf(body.url)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    const row = linkRow(body.id)
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'))
    expect(row.fileIds).toBeNull()
    // The token appears nowhere in the database files (main file and write-ahead log).
    for (const file of [process.env.DATABASE_PATH!, `${process.env.DATABASE_PATH!}-wal`]) {
      if (fs.existsSync(file)) expect(fs.readFileSync(file).includes(Buffer.from(token))).toBe(false)
    }
    expect(fs.readFileSync(`${process.env.DATABASE_PATH!}-wal`).includes(Buffer.from(row.tokenHash))).toBe(
      true,
    )
    const audit = getDb().select().from(auditLog).where(eq(auditLog.action, 'share-link.create')).all()
    expect(audit.some((a) => a.entityId === String(body.id) && a.actorId === client.user.id)).toBe(true)
    expect(JSON.stringify(audit)).not.toContain(token)
  })

  test('chosen files and an expiry: stored as given; another project’s file or an unknown id is 400', async () => {
    const { client, admin, project, files } = await deliveredProject()
    const res = await createLink(
      project.id,
      { fileIds: [files.report.id, files.report.id], allowDownload: true, expiresInDays: 365 },
      client.headers,
    )
    expect(res.status).toBe(201)
    const body = await readJson<Created>(res)
    expect(linkRow(body.id).fileIds).toEqual([files.report.id])
    expect((new Date(body.expiresAt).getTime() - Date.now()) / 86_400_000).toBeGreaterThan(364.9)

    const other = insertProject({ clientId: client.user.id })
    const foreign = await storeDeliverable(
      { id: admin.user.id, role: 'admin' },
      other.id,
      'Other.pdf',
      Buffer.from('%PDF-1.4\nx'),
    )
    for (const fileIds of [[foreign.id], [999_999]]) {
      const refused = await createLink(project.id, { fileIds, allowDownload: true }, client.headers)
      expect(refused.status).toBe(400)
      expect(await readJson(refused)).toMatchObject({
        error: 'Only this project’s deliverables can be shared',
        fieldErrors: { fileIds: ['Only this project’s deliverables can be shared'] },
      })
    }
  })

  test('bad input is 400 with field errors (or 415 for a non-JSON body); nothing is stored', async () => {
    const { client, project } = await deliveredProject()
    const bad: Array<[unknown, string]> = [
      [{}, 'allowDownload'],
      [{ allowDownload: 'yes' }, 'allowDownload'],
      [{ allowDownload: true, expiresInDays: 0 }, 'expiresInDays'],
      [{ allowDownload: true, expiresInDays: 366 }, 'expiresInDays'],
      [{ allowDownload: true, expiresInDays: 1.5 }, 'expiresInDays'],
      [{ allowDownload: true, expiresInDays: 'soon' }, 'expiresInDays'],
      [{ allowDownload: true, expiresInDays: { valueOf: 3 } }, 'expiresInDays'],
      [{ allowDownload: true, fileIds: [] }, 'fileIds'],
      [{ allowDownload: true, fileIds: 'all' }, 'fileIds'],
      [{ allowDownload: true, fileIds: [-1] }, 'fileIds.0'],
      [[], 'form'],
      // A misspelt fileIds would otherwise share every deliverable.
      [{ allowDownload: true, files: [1] }, 'form'],
    ]
    for (const [json, field] of bad) {
      const res = await createLink(project.id, json, client.headers)
      expect(res.status, JSON.stringify(json)).toBe(400)
      expect((await readJson<{ fieldErrors: object }>(res)).fieldErrors).toHaveProperty([field])
    }
    const text = await callRoute(shareLinksRoute.action, `/api/projects/${project.id}/share-links`, {
      body: 'allowDownload=true',
      headers: { ...client.headers, 'Content-Type': 'text/plain' },
      params: { id: String(project.id) },
    })
    expect(text.status).toBe(415)
    const badId = await callRoute(shareLinksRoute.action, '/api/projects/x/share-links', {
      json: { allowDownload: true },
      headers: client.headers,
      params: { id: 'x' },
    })
    expect(badId.status).toBe(400)
    expect(getDb().select().from(shareLinks).where(eq(shareLinks.projectId, project.id)).all()).toHaveLength(
      0,
    )
  })

  test('roles: signed out 401, another client 404, the pilot 403, admins 201 (also before completion); a client before completion 409', async () => {
    const { client, otherClient, pilot, admin, project } = await deliveredProject()
    expect((await createLink(project.id, { allowDownload: true }, {})).status).toBe(401)
    expect((await createLink(project.id, { allowDownload: true }, otherClient.headers)).status).toBe(404)
    const byPilot = await createLink(project.id, { allowDownload: true }, pilot.headers)
    expect(byPilot.status).toBe(403)
    expect((await readJson(byPilot)).error).toBe(
      'Only the project’s client or an admin can share its deliverables',
    )
    expect((await createLink(project.id, { allowDownload: true }, admin.headers)).status).toBe(201)
    expect((await createLink(999_999, { allowDownload: true }, admin.headers)).status).toBe(404)

    const ongoing = insertProject({ clientId: client.user.id, status: 'in_progress' })
    await storeDeliverable(
      { id: admin.user.id, role: 'admin' },
      ongoing.id,
      'Draft.pdf',
      Buffer.from('%PDF-1.4\ny'),
    )
    const early = await createLink(ongoing.id, { allowDownload: true }, client.headers)
    expect(early.status).toBe(409)
    expect((await readJson(early)).error).toBe('You can share the deliverables once the project is completed')
    expect((await createLink(ongoing.id, { allowDownload: true }, admin.headers)).status).toBe(201)

    const empty = insertProject({ clientId: client.user.id, status: 'in_progress' })
    const none = await createLink(empty.id, { allowDownload: true }, admin.headers)
    expect(none.status).toBe(409)
    expect((await readJson(none)).error).toBe('This project has no deliverables to share yet')
  })

  test('after the deliverable window the client cannot share (409)', async () => {
    const { client, project } = await deliveredProject({ completedDaysAgo: 40 })
    const res = await createLink(project.id, { allowDownload: true }, client.headers)
    expect(res.status).toBe(409)
  })

  test('a cross-site cookie post is refused (403)', async () => {
    const { project } = await deliveredProject()
    const res = await callRoute(shareLinksRoute.action, `/api/projects/${project.id}/share-links`, {
      json: { allowDownload: true },
      headers: { Cookie: 'kestrel_session=abc', Origin: 'https://evil.example' },
      params: { id: String(project.id) },
    })
    expect(res.status).toBe(403)
  })
})

describe('GET /api/projects/{id}/share-links and DELETE /api/share-links/{id}', () => {
  test('the owner sees each link with its state and counts; others 404, the pilot 403, signed out 401', async () => {
    const { client, otherClient, pilot, admin, project, files } = await deliveredProject()
    const chosen = await readJson<Created>(
      await createLink(project.id, { fileIds: [files.image.id], allowDownload: false }, client.headers),
    )
    const all = await readJson<Created>(await createLink(project.id, { allowDownload: true }, admin.headers))
    await openViewer(tokenOf(all.url))
    await openViewer(tokenOf(all.url))
    await fetchShared(tokenOf(all.url), files.report.id)

    const res = await listLinks(project.id, client.headers)
    expect(res.status).toBe(200)
    const body = await readJson<ListBody>(res)
    expect(body.shareLinks.map((l) => l.id)).toEqual([all.id, chosen.id])
    expect(body.shareLinks[0]).toMatchObject({
      state: 'active',
      openCount: 2,
      downloadCount: 1,
      fileIds: null,
    })
    expect(body.shareLinks[0]!.lastOpenedAt).not.toBeNull()
    expect(body.shareLinks[1]).toMatchObject({
      openCount: 0,
      lastOpenedAt: null,
      fileIds: [files.image.id],
      fileNames: ['Orthomosaic preview.png'],
    })
    expect(JSON.stringify(body)).not.toMatch(/token|\/s\//)
    expect((await listLinks(project.id, admin.headers)).status).toBe(200)
    expect((await listLinks(project.id, otherClient.headers)).status).toBe(404)
    expect((await listLinks(project.id, pilot.headers)).status).toBe(403)
    expect((await listLinks(project.id, {})).status).toBe(401)
  })

  test('revoking: 204 for the client (again: 204), 404 for another client or the pilot; the link then answers 410', async () => {
    const { client, otherClient, pilot, admin, project, link, token, files } = await madeLink()
    expect((await revoke(link.id, otherClient.headers)).status).toBe(404)
    expect((await revoke(link.id, pilot.headers)).status).toBe(404)
    expect((await revoke(link.id, {})).status).toBe(401)
    expect((await revoke('abc', client.headers)).status).toBe(400)
    expect((await revoke(999_999, client.headers)).status).toBe(404)
    const res = await revoke(link.id, client.headers)
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect((await revoke(link.id, admin.headers)).status).toBe(204)
    expect(linkRow(link.id).revokedAt).toBeInstanceOf(Date)
    const audits = getDb().select().from(auditLog).where(eq(auditLog.action, 'share-link.revoke')).all()
    expect(audits).toHaveLength(1)

    const page = await openViewer(token)
    expect(page.status).toBe(410)
    expect(await readJson(page)).toMatchObject({ state: 'gone' })
    expect((await fetchShared(token, files.report.id)).status).toBe(410)
    const list = await readJson<ListBody>(await listLinks(project.id, client.headers))
    expect(list.shareLinks[0]!.state).toBe('revoked')
  })

  test('only DELETE revokes (405 otherwise)', async () => {
    const { client, link } = await madeLink()
    const res = await callRoute(revokeRoute.action, `/api/share-links/${link.id}`, {
      method: 'POST',
      headers: client.headers,
      params: { id: String(link.id) },
    })
    expect(res.status).toBe(405)
  })
})

describe('GET /s/{token} (the public viewer)', () => {
  test('opens without an account: the deliverables with kind, size, SHA-256; counted, audited; noindex and no-referrer', async () => {
    const { link, token, files } = await madeLink()
    const res = await openViewer(token)
    expect(res.status).toBe(200)
    expect(res.headers.get('X-Robots-Tag')).toBe('noindex, nofollow')
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer')
    const body = await readJson<{
      state: string
      files: Array<{ id: number; kind: string; sizeBytes: number; sha256: string; downloadUrl: string }>
      downloadAllUrl: string
    }>(res)
    expect(body.state).toBe('open')
    expect(body.files.map((f) => f.id)).toEqual([files.report.id, files.image.id, files.video.id])
    expect(body.files[0]).toMatchObject({
      kind: 'report',
      sizeBytes: files.report.fileSize,
      sha256: files.report.sha256,
      downloadUrl: `/s/${token}/files/${files.report.id}`,
    })
    expect(body.downloadAllUrl).toBe(`/s/${token}/download-all`)
    const row = linkRow(link.id)
    expect(row.openCount).toBe(1)
    expect(row.lastOpenedAt).toBeInstanceOf(Date)
    const audits = getDb().select().from(auditLog).where(eq(auditLog.action, 'share-link.open')).all()
    expect(audits.filter((a) => a.entityId === String(link.id))).toHaveLength(1)
    expect(viewerRoute.meta({} as never)).toEqual(
      expect.arrayContaining([{ name: 'robots', content: 'noindex, nofollow' }]),
    )
  })

  test('unknown or malformed tokens are 404; an expired link 410 with its date', async () => {
    const { link, token } = await madeLink()
    const unknown = await openViewer('A'.repeat(43))
    expect(unknown.status).toBe(404)
    expect(await readJson(unknown)).toMatchObject({ state: 'unknown' })
    expect((await openViewer('short')).status).toBe(404)
    expect((await openViewer(`${token}x`)).status).toBe(404)
    getDb()
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.UTC(2026, 0, 15, 10)) })
      .where(eq(shareLinks.id, link.id))
      .run()
    const expired = await openViewer(token)
    expect(expired.status).toBe(410)
    expect(await readJson(expired)).toMatchObject({
      state: 'gone',
      message: 'This link expired on 15 January 2026. Ask its owner for a new one.',
    })
    expect(linkRow(link.id).openCount).toBe(0)
  })

  test('when the project’s files are past their availability the link answers 410', async () => {
    const { client, project } = await deliveredProject({ completedDaysAgo: 10 })
    const link = await readJson<Created>(
      await createLink(project.id, { allowDownload: true }, client.headers),
    )
    getDb()
      .update(projects)
      .set({ completedAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(projects.id, project.id))
      .run()
    expect((await openViewer(tokenOf(link.url))).status).toBe(410)
  })

  test('an address that tries 20 unknown tokens gets 429, then even for a real link; other addresses are not affected', async () => {
    const { token } = await madeLink()
    const ip = '192.0.2.77'
    for (let i = 0; i < 20; i++) {
      const res = await openViewer(`${'B'.repeat(40)}${String(i).padStart(3, '0')}`, ip)
      expect(res.status).toBe(404)
    }
    const limited = await openViewer(token, ip)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect((await openViewer(token, '192.0.2.78')).status).toBe(200)
  })
})

describe('GET /s/{token}/files/{fileId} and the viewing copies', () => {
  test('a download link streams the original (ETag, Range) and counts started downloads only', async () => {
    const { link, token, files } = await madeLink()
    const res = await fetchShared(token, files.video.id)
    expect(res.status).toBe(200)
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(files.video.sha256)
    const resumed = await fetchShared(token, files.video.id, { Range: 'bytes=100-199' })
    expect(resumed.status).toBe(206)
    expect(Buffer.from(await resumed.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true)
    expect(linkRow(link.id).downloadCount).toBe(1)
    const audits = getDb()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'share-link.download'))
      .all()
      .filter((a) => a.entityId === String(link.id))
    expect(audits).toHaveLength(1)
    expect(JSON.parse(audits[0]!.after!)).toEqual({ fileId: files.video.id })
  })

  test('view-only: 403 for the original; a file the link does not share, or another project’s, is 404', async () => {
    const setting = await deliveredProject()
    const viewOnly = await readJson<Created>(
      await createLink(
        setting.project.id,
        { fileIds: [setting.files.image.id], allowDownload: false },
        setting.client.headers,
      ),
    )
    const token = tokenOf(viewOnly.url)
    const refused = await fetchShared(token, setting.files.image.id)
    expect(refused.status).toBe(403)
    expect(await readJson(refused)).toEqual({
      error: 'This link lets you view the deliverables, not download them',
    })
    expect((await fetchShared(token, setting.files.report.id)).status).toBe(404)
    const other = await deliveredProject()
    const unknown = await fetchShared(token, other.files.report.id)
    expect(unknown.status).toBe(404)
    // A file id that is not a number gets the same JSON answer as an unknown one, on both file routes.
    const notShared = await readJson(unknown)
    expect(notShared).toEqual({ error: 'This file is not part of the shared deliverables' })
    for (const [route, url] of [
      [shareFileRoute.loader, `/s/${token}/files/abc`],
      [shareViewRoute.loader, `/s/${token}/files/abc/view/preview`],
    ] as const) {
      const res = await callRoute(route, url, {
        params: { token, fileId: 'abc', variant: 'preview' },
        context: { clientIp: freshIp() },
      })
      expect(res.status).toBe(404)
      expect(res.headers.get('X-Robots-Tag')).toBe('noindex, nofollow')
      expect(await readJson(res)).toEqual(notShared)
    }
    const zip = await callRoute(shareDownloadAllRoute.loader, `/s/${token}/download-all`, {
      params: { token },
      context: { clientIp: freshIp() },
    })
    expect(zip.status).toBe(403)
    expect(linkRow(viewOnly.id).downloadCount).toBe(0)
  })

  test('viewing copies go through the link (view-only too), with byte ranges; none yet is 404', async () => {
    const setting = await deliveredProject()
    const viewOnly = await readJson<Created>(
      await createLink(setting.project.id, { allowDownload: false }, setting.client.headers),
    )
    const token = tokenOf(viewOnly.url)
    const view = (variant: string, headers: Record<string, string> = {}) =>
      callRoute(shareViewRoute.loader, `/s/${token}/files/${setting.files.image.id}/view/${variant}`, {
        params: { token, fileId: String(setting.files.image.id), variant },
        headers,
        context: { clientIp: freshIp() },
      })
    expect((await view('preview')).status).toBe(404)
    const dir = path.join(storagePaths().root, 'views')
    fs.mkdirSync(dir, { recursive: true })
    const preview = Buffer.alloc(5000, 7)
    fs.writeFileSync(path.join(dir, 'preview.png'), preview)
    getDb()
      .insert(deliverableViews)
      .values({ fileId: setting.files.image.id, status: 'ready', previewName: 'views/preview.png' })
      .run()
    const whole = await view('preview')
    expect(whole.status).toBe(200)
    expect(whole.headers.get('Content-Type')).toBe('image/png')
    const part = await view('preview', { Range: 'bytes=0-99' })
    expect(part.status).toBe(206)
    expect((await part.arrayBuffer()).byteLength).toBe(100)
    expect((await view('cog')).status).toBe(404)
    expect((await view('original')).status).toBe(404)
    const page = await readJson<{
      files: Array<{ id: number; previewUrl: string | null; downloadUrl: null }>
    }>(await openViewer(token))
    const shown = page.files.find((f) => f.id === setting.files.image.id)!
    expect(shown.previewUrl).toBe(`/s/${token}/files/${setting.files.image.id}/view/preview`)
    expect(shown.downloadUrl).toBeNull()
    expect(linkRow(viewOnly.id).downloadCount).toBe(0)
  })

  test('the viewer maps a ready raster through the link, with the survey areas', async () => {
    const setting = await deliveredProject()
    const outline = [
      { latitude: -33.92, longitude: 18.42 },
      { latitude: -33.92, longitude: 18.43 },
      { latitude: -33.93, longitude: 18.43 },
    ]
    const plan = { areas: [{ areaNumber: 1, coordinates: outline }], pricing: { totalInCents: 100 } }
    getDb()
      .update(projects)
      .set({ flightPlan: JSON.stringify(plan) })
      .where(eq(projects.id, setting.project.id))
      .run()
    const ortho = setting.files.image
    getDb()
      .update(projectFiles)
      .set({
        deliverableKind: 'orthomosaic',
        rasterInfo: {
          epsg: 32734,
          widthPx: 100,
          heightPx: 100,
          bandCount: 3,
          dataType: 'Byte',
          nodata: null,
          gsdCm: 5,
          boundsWgs84: [18.42, -33.93, 18.43, -33.92],
          footprintWgs84: [
            [18.42, -33.93],
            [18.43, -33.93],
            [18.43, -33.92],
            [18.42, -33.93],
          ],
          footprintHa: 1,
          overlapPercent: 100,
        },
      })
      .where(eq(projectFiles.id, ortho.id))
      .run()
    getDb()
      .insert(deliverableViews)
      .values({ fileId: ortho.id, status: 'ready', cogName: 'views/o.tif', previewName: 'views/o.png' })
      .run()
    // A view-only link maps the reduced copy beside the COG (none on disk: no layer).
    fs.mkdirSync(path.join(storagePaths().root, 'views'), { recursive: true })
    fs.writeFileSync(path.join(storagePaths().root, 'views', 'o.view-only.tif'), Buffer.alloc(100, 1))
    const created = await readJson<Created>(
      await createLink(setting.project.id, { allowDownload: false }, setting.client.headers),
    )
    const token = tokenOf(created.url)
    const page = await readJson<{
      areas: Array<{ coordinates: unknown[] }>
      layers: Array<{ id: number; kind: string; cogUrl: string; previewUrl: string | null }>
    }>(await openViewer(token))
    expect(page.areas).toEqual([{ coordinates: outline }])
    expect(page.layers).toEqual([
      expect.objectContaining({
        id: ortho.id,
        kind: 'orthomosaic',
        cogUrl: `/s/${token}/files/${ortho.id}/view/cog`,
        previewUrl: `/s/${token}/files/${ortho.id}/view/preview`,
      }),
    ])
  })

  test('download all through a link: the shared files and their checksums, counted once', async () => {
    const { link, token, files } = await madeLink()
    const res = await callRoute(shareDownloadAllRoute.loader, `/s/${token}/download-all`, {
      params: { token },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('application/zip')
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()))
    expect(Object.keys(entries).sort()).toEqual(
      ['Flyover.mp4', 'Orthomosaic preview.png', 'Survey report.pdf', 'checksums.sha256'].sort(),
    )
    expect(new TextDecoder().decode(entries['checksums.sha256'])).toContain(
      `${files.report.sha256}  Survey report.pdf\n`,
    )
    expect(linkRow(link.id).downloadCount).toBe(1)
  })
})

describe('/projects/{id}/share (the Share page and its forms)', () => {
  const sharePage = (
    projectId: number,
    headers: Record<string, string>,
    form?: Record<string, string> | FormData,
  ) =>
    form
      ? callRoute(sharePageRoute.action, `/projects/${projectId}/share`, {
          form,
          headers: { ...headers, Origin: 'http://localhost:3999' },
          params: { projectId: String(projectId) },
        })
      : callRoute(sharePageRoute.loader, `/projects/${projectId}/share`, {
          headers,
          params: { projectId: String(projectId) },
        })

  test('the client’s form makes a link shown once; Revoke posts back with a toast; the list shows the counts', async () => {
    const { client, project, files } = await deliveredProject()
    const form = new FormData()
    form.append('intent', 'create-share-link')
    form.append('fileIds', String(files.report.id))
    form.append('fileIds', String(files.image.id))
    form.append('allowDownload', 'on')
    form.append('expiresInDays', '7')
    const res = await sharePage(project.id, client.headers, form)
    expect(res.status).toBe(201)
    const body = await readJson<{ created: { url: string; allowDownload: boolean } }>(res)
    expect(body.created.url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/)
    const [row] = getDb().select().from(shareLinks).where(eq(shareLinks.projectId, project.id)).all()
    expect(row).toMatchObject({ fileIds: [files.report.id, files.image.id], allowDownload: true })
    await openViewer(tokenOf(body.created.url))

    const page = await readJson<{ links: Array<{ openCount: number }>; deliverables: unknown[] }>(
      await sharePage(project.id, client.headers),
    )
    expect(page.links[0]!.openCount).toBe(1)
    expect(page.deliverables).toHaveLength(3)

    const revoked = await sharePage(project.id, client.headers, {
      intent: 'revoke-share-link',
      linkId: String(row!.id),
      returnTo: `/dashboard?tab=projects&view=${project.id}`,
    })
    expect(revoked.status).toBe(302)
    expect(revoked.headers.get('Location')).toBe(`/dashboard?tab=projects&view=${project.id}`)
    expect(linkRow(row!.id).revokedAt).toBeInstanceOf(Date)
  })

  test('bad form input comes back as field errors; the pilot 403, another client 404, signed out to sign in', async () => {
    const { client, otherClient, pilot, project } = await deliveredProject()
    const bad = await sharePage(project.id, client.headers, {
      intent: 'create-share-link',
      expiresInDays: '400',
    })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await readJson(bad))).toContain('Choose between 1 and 365 days')
    expect((await sharePage(project.id, pilot.headers)).status).toBe(403)
    expect((await sharePage(project.id, otherClient.headers)).status).toBe(404)
    expect((await sharePage(project.id, otherClient.headers, { intent: 'create-share-link' })).status).toBe(
      404,
    )
    expect((await sharePage(project.id, {})).status).toBe(302)
    expect(getDb().select().from(shareLinks).where(eq(shareLinks.projectId, project.id)).all()).toHaveLength(
      0,
    )
  })
})

describe('a site’s repeats carry their survey date wherever two can sit side by side', () => {
  test('file downloads, both ZIPs (name and entries) and the share dialog; a project alone on none keeps its names', async () => {
    const setting = await deliveredProject({ completedDaysAgo: 3 })
    const { client, project, files } = setting
    const site = getDb().insert(sites).values({ clientId: client.user.id, name: 'Quarry' }).returning().get()
    const earlier = insertProject({
      clientId: client.user.id,
      status: 'completed',
      completedAt: new Date(Date.now() - 40 * 86_400_000),
    })
    getDb()
      .update(projects)
      .set({ siteId: site.id })
      .where(inArray(projects.id, [project.id, earlier.id]))
      .run()
    const row = getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
    const date = formatDate(row.completedAt, { short: true })
    const dateSlug = date.replaceAll(' ', '-')

    const download = await callRoute(downloadRoute.loader, `/api/download-file/${files.report.id}`, {
      headers: client.headers,
      params: { id: String(files.report.id) },
    })
    expect(download.status).toBe(200)
    expect(download.headers.get('Content-Disposition')).toContain(`filename="Survey report (${date}).pdf"`)
    // The pages' links ask for the plain name: it gets the date too (once).
    for (const asked of ['Survey report.pdf', `Survey report (${date}).pdf`]) {
      const linked = await callRoute(
        downloadRoute.loader,
        `/api/download-file/${files.report.id}?filename=${encodeURIComponent(asked)}`,
        { headers: client.headers, params: { id: String(files.report.id) } },
      )
      expect(linked.headers.get('Content-Disposition')).toContain(`filename="Survey report (${date}).pdf"`)
    }

    const accountZip = await callRoute(downloadAllRoute.loader, `/api/projects/${project.id}/download-all`, {
      headers: client.headers,
      params: { id: String(project.id) },
    })
    expect(accountZip.headers.get('Content-Disposition')).toContain(
      `-${project.id}-${dateSlug}-deliverables.zip"`,
    )
    const entries = Object.keys(unzipSync(new Uint8Array(await accountZip.arrayBuffer()))).sort()
    expect(entries).toEqual(
      [
        `Flyover (${date}).mp4`,
        `Orthomosaic preview (${date}).png`,
        `Survey report (${date}).pdf`,
        'checksums.sha256',
      ].sort(),
    )

    const res = await createLink(project.id, { allowDownload: true }, client.headers)
    const token = tokenOf((await readJson<Created>(res)).url)
    const shared = await fetchShared(token, files.report.id)
    expect(shared.headers.get('Content-Disposition')).toContain(`filename="Survey report (${date}).pdf"`)
    const linkZip = await callRoute(shareDownloadAllRoute.loader, `/s/${token}/download-all`, {
      params: { token },
      context: { clientIp: freshIp() },
    })
    expect(linkZip.headers.get('Content-Disposition')).toContain(`-${dateSlug}-deliverables.zip"`)
    expect(Object.keys(unzipSync(new Uint8Array(await linkZip.arrayBuffer())))).toContain(
      `Survey report (${date}).pdf`,
    )

    // The share dialog: what to share is named as it will download, the page titled with the date.
    const dialog = await readJson<{ deliverables: Array<{ name: string }>; surveyDate: string | null }>(
      await callRoute(sharePageRoute.loader, `/projects/${project.id}/share`, {
        headers: client.headers,
        params: { projectId: String(project.id) },
      }),
    )
    expect(dialog.surveyDate).toBe(date)
    expect(dialog.deliverables.map((d) => d.name)).toContain(`Survey report (${date}).pdf`)

    // Alone (no site): the plain names.
    const alone = await deliveredProject()
    const plain = await callRoute(downloadRoute.loader, `/api/download-file/${alone.files.report.id}`, {
      headers: alone.client.headers,
      params: { id: String(alone.files.report.id) },
    })
    expect(plain.headers.get('Content-Disposition')).toContain('filename="Survey report.pdf"')
    const plainZip = await callRoute(
      downloadAllRoute.loader,
      `/api/projects/${alone.project.id}/download-all`,
      {
        headers: alone.client.headers,
        params: { id: String(alone.project.id) },
      },
    )
    expect(plainZip.headers.get('Content-Disposition')).toContain(`-${alone.project.id}-deliverables.zip"`)
    await plainZip.arrayBuffer()
  })
})
