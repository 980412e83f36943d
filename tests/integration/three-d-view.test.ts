/**
 * The 3D view's sources end to end: deliverables stored through the one upload path, their view
 * job (COPC facts, a LAS's copy, an OBJ ZIP's GLB), who sees them, and a COPC read over real HTTP
 * by Range through a share link — only the nodes the point budget asks for, never the whole file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { loadCopc } from '#app/components/threed/point-sources.ts'
import { startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import {
  loadThreeDView,
  saveStill,
  shareThreeDView,
  stillFileOf,
  tilesFileWithoutAccessCheck,
} from '#app/domain/deliverables/three-d-view.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import { sweepStorage } from '#app/domain/files/sweep.server.ts'
import { openShareToken } from '#app/domain/sharing/share-access.server.ts'
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import { SHARE_MESSAGES } from '#app/domain/sharing/share-rules.ts'
import { THREE_D_MESSAGES } from '#app/domain/threed/three-d.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { processingJobs, projectFiles } from '#db/schema.ts'
import { projectWithTeam, signedInUser } from '#tests/factories.ts'
import { httpAppForFile } from '#tests/helpers/http-app.ts'
import { groundCloudLas, zipBytes } from '#tests/helpers/rasters.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { encodePng } from '../../server/nodeodm-simulator/png.ts'

const app = httpAppForFile()
const COPC = path.resolve('tests/fixtures/pointclouds/ellipsoid.copc.laz')

const OBJ = 'mtllib m.mtl\nv 0 0 0\nv 4 0 0\nv 4 3 0\nvt 0 0\nvt 1 0\nvt 1 1\nusemtl a\nf 1/1 2/2 3/3\n'

async function store(user: { id: number; role: 'admin' }, projectId: number, name: string, bytes: Buffer) {
  return storeProjectFile({
    user,
    projectId,
    category: 'processed_deliverable',
    originalName: name,
    source: Readable.from([bytes]),
  })
}

async function deliveredWithThreeD() {
  const team = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  const admin = { id: team.admin.user.id, role: 'admin' as const }
  const copc = await store(admin, team.project.id, 'Point cloud.copc.laz', fs.readFileSync(COPC))
  const las = await store(admin, team.project.id, 'Cloud.las', groundCloudLas())
  const model = await store(
    admin,
    team.project.id,
    'Model.zip',
    zipBytes({
      'm.obj': OBJ,
      'm.mtl': 'newmtl a\nmap_Kd t.png\n',
      't.png': encodePng(2, 2, 3, new Uint8Array(12).fill(90)),
    }),
  )
  const runner = startViewJobs()
  await runner.idle()
  await runner.stop()
  return { ...team, ids: { copc: copc.id, las: las.id, model: model.id } }
}

describe('3D view', () => {
  test('the view job prepares every source; the project’s people see them, another client gets 404', async () => {
    const { client, pilot, project, ids } = await deliveredWithThreeD()
    const view = await loadThreeDView(client.user, project.id)
    const byFile = new Map(view.sources.map((s) => [s.fileId, s]))
    expect(byFile.get(ids.copc)).toMatchObject({
      type: 'copc',
      url: `/api/projects/${project.id}/deliverables/${ids.copc}/view/source`,
      facts: { pointCount: 100_000, copc: true, crs: expect.stringContaining('EPSG:3857') },
    })
    expect(byFile.get(ids.las)).toMatchObject({
      type: 'las',
      url: `/api/projects/${project.id}/deliverables/${ids.las}/view/cloud`,
      facts: { pointCount: 400, crs: 'EPSG:32734', thinned: null },
    })
    expect(byFile.get(ids.model)).toMatchObject({
      type: 'glb',
      url: `/api/projects/${project.id}/deliverables/${ids.model}/view/model`,
    })
    expect((await loadThreeDView(pilot.user, project.id)).sources).toHaveLength(3)
    const stranger = await signedInUser('client')
    await expect(loadThreeDView(stranger.user, project.id)).rejects.toMatchObject({ status: 404 })

    // The GLB copy over HTTP: a glTF binary, for the project's client only.
    const glb = await fetch(`${app.base}${byFile.get(ids.model)!.url}`, { headers: client.headers })
    expect(glb.status).toBe(200)
    expect(Buffer.from(await glb.arrayBuffer()).toString('latin1', 0, 4)).toBe('glTF')
    const refused = await fetch(`${app.base}${byFile.get(ids.model)!.url}`, { headers: stranger.headers })
    expect(refused.status).toBe(404)
  })

  test('a COPC is read by Range through a share link with downloads: the root node for its budget, not the whole file', async () => {
    const { client, project, ids } = await deliveredWithThreeD()
    const created = createShareLink({ id: client.user.id, role: 'client' }, project.id, {
      allowDownload: true,
    })
    const token = created.url.split('/').pop()!
    const url = `${app.base}/s/${token}/files/${ids.copc}/view/source`
    const served: Array<{ status: number; bytes: number }> = []
    const realFetch = globalThis.fetch
    globalThis.fetch = async (input, init) => {
      const response = await realFetch(input, init)
      const bytes = Number(response.headers.get('content-length') ?? 0)
      served.push({ status: response.status, bytes })
      return response
    }
    let points = 0
    try {
      await loadCopc(url, [0, 0, 0], 70_000, new AbortController().signal, (chunk) => (points += chunk.count))
    } finally {
      globalThis.fetch = realFetch
    }
    const size = fs.statSync(COPC).size
    const total = served.reduce((n, r) => n + r.bytes, 0)
    expect(served.every((r) => r.status === 206)).toBe(true)
    // The first 64 KiB (header and VLRs), the hierarchy page and small VLR reads, and the root node (66 272 of
    // 100 000 points, 358 488 B); the four level-1 nodes (270 KB) are never fetched.
    expect(points).toBe(66_272)
    expect(total).toBeGreaterThan(358_488)
    expect(total).toBeLessThanOrEqual(65_536 + 4096 + 358_488)
    expect(size - total).toBeGreaterThan(200_000)
  })

  test('a view-only link reads reduced copies only (clouds at most half their points, no model); a link with downloads streams the originals', async () => {
    const { client, project, ids } = await deliveredWithThreeD()
    const owner = { id: client.user.id, role: 'client' as const }
    const viewOnly = createShareLink(owner, project.id, { allowDownload: false }).url.split('/').pop()!
    const withDownloads = createShareLink(owner, project.id, { allowDownload: true }).url.split('/').pop()!
    const share = (token: string) => openShareToken(token, '127.0.0.1')

    const view = await shareThreeDView(viewOnly, await share(viewOnly))
    const byFile = new Map(view.sources.map((s) => [s.fileId, s]))
    expect(view.sources).toHaveLength(2)
    expect(view.withheld).toBe(1)
    expect(byFile.get(ids.copc)).toMatchObject({
      type: 'las',
      url: `/s/${viewOnly}/files/${ids.copc}/view/reduced`,
      facts: { pointCount: 100_000, copc: false, thinned: { kept: 50_000, total: 100_000 } },
    })
    expect(byFile.get(ids.las)).toMatchObject({
      type: 'las',
      url: `/s/${viewOnly}/files/${ids.las}/view/reduced`,
      facts: { thinned: { kept: 200, total: 400 } },
    })
    expect(byFile.has(ids.model)).toBe(false)

    const original = fs.readFileSync(COPC)
    const read = (token: string, fileId: number, which: string) =>
      fetch(`${app.base}/s/${token}/files/${fileId}/view/${which}`)
    const reduced = await read(viewOnly, ids.copc, 'reduced')
    expect(reduced.status).toBe(200)
    const bytes = Buffer.from(await reduced.arrayBuffer())
    expect(bytes.toString('latin1', 0, 4)).toBe('LASF')
    expect(bytes.readUInt32LE(107)).toBe(50_000)
    expect(bytes.equals(original)).toBe(false)
    expect(bytes.length).toBeLessThan(227 + 50_000 * 26 + 1)
    for (const [fileId, which] of [
      [ids.copc, 'source'],
      [ids.las, 'cloud'],
      [ids.model, 'model'],
    ] as const) {
      const refused = await read(viewOnly, fileId, which)
      expect(refused.status, which).toBe(403)
      expect(await refused.json()).toEqual({ error: SHARE_MESSAGES.viewOnly })
    }

    const full = await shareThreeDView(withDownloads, await share(withDownloads))
    expect(full.withheld).toBe(0)
    expect(full.sources.find((s) => s.fileId === ids.copc)).toMatchObject({
      type: 'copc',
      url: `/s/${withDownloads}/files/${ids.copc}/view/source`,
    })
    const source = await read(withDownloads, ids.copc, 'source')
    expect(source.status).toBe(200)
    expect(Buffer.from(await source.arrayBuffer()).equals(original)).toBe(true)
    expect((await read(withDownloads, ids.model, 'model')).status).toBe(200)
  })

  test('the owner’s (or an admin’s) first still image is kept and shown through share links, also after a restart; a member’s is refused', async () => {
    const { client, pilot, admin, project } = await deliveredWithThreeD()
    const png = encodePng(4, 3, 3, new Uint8Array(36).fill(100))
    const body = (bytes: Buffer | Uint8Array) => Buffer.from(bytes)

    // The assigned pilot sees the view but leaves no still image for others.
    const pilotView = await loadThreeDView(pilot.user, project.id)
    expect(pilotView.mayLeaveStill).toBe(false)
    await expect(saveStill(pilotView, body(png))).rejects.toMatchObject({ status: 403 })
    const refused = await fetch(`${app.base}/api/projects/${project.id}/3d-still`, {
      method: 'POST',
      headers: { ...pilot.headers, 'Content-Type': 'image/png' },
      body: png,
    })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: THREE_D_MESSAGES.stillNotYours })

    const view = await loadThreeDView(client.user, project.id)
    expect(view.mayLeaveStill).toBe(true)
    expect((await loadThreeDView(admin.user, project.id)).mayLeaveStill).toBe(true)
    expect(() => stillFileOf(view)).toThrow(expect.objectContaining({ status: 404 }))
    await expect(saveStill(view, body(Buffer.from('not a png')))).rejects.toMatchObject({ status: 415 })
    expect(await saveStill(view, body(png))).toEqual({ saved: true })
    expect(await saveStill(view, body(encodePng(2, 2, 3, new Uint8Array(12))))).toEqual({ saved: false })
    const again = await loadThreeDView(client.user, project.id)
    expect(again.stillUrl).toMatch(new RegExp(`^/api/projects/${project.id}/3d-still\\?v=`))
    expect(fs.readFileSync(stillFileOf(again).path)).toEqual(png)
    const response = await fetch(`${app.base}/api/projects/${project.id}/3d-still`, {
      headers: client.headers,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')

    // A restart's sweep keeps it (it used to remove the stills' folder as an orphan).
    expect((await sweepStorage()).orphanFilesRemoved).toBe(0)

    // A share link shows it (a view-only one in place of the model).
    const token = createShareLink({ id: client.user.id, role: 'client' }, project.id, {
      allowDownload: false,
    })
      .url.split('/')
      .pop()!
    const shared = await shareThreeDView(token, await openShareToken(token, '127.0.0.1'))
    expect(shared.stillUrl).toMatch(new RegExp(`^/s/${token}/3d-still\\?v=`))
    const sharedStill = await fetch(`${app.base}/s/${token}/3d-still`)
    expect(sharedStill.status).toBe(200)
    expect(Buffer.from(await sharedStill.arrayBuffer())).toEqual(png)
    const page = await fetch(`${app.base}/s/${token}/3d`)
    const html = await page.text()
    expect(html).toContain(`/s/${token}/3d-still?v=`)
    expect(html).not.toContain(THREE_D_MESSAGES.noStill.replace(/'/g, '&#x27;'))
  })

  test('a NUL byte or another control character in a 3D Tiles path is a 404, not a 500', async () => {
    const { client, project, ids } = await deliveredWithThreeD()
    const job = getDb()
      .insert(processingJobs)
      .values({ projectId: project.id, preset: 'standard', options: {}, status: 'completed' })
      .returning()
      .get()
    // The job's tiles are read while one of its deliverables is the client's.
    getDb().update(projectFiles).set({ processingJobId: job.id }).where(eq(projectFiles.id, ids.copc)).run()
    const tileset = path.join(jobFolder(job.id), '3d_tiles', 'tileset.json')
    fs.mkdirSync(path.dirname(tileset), { recursive: true })
    fs.writeFileSync(tileset, '{"asset":{"version":"1.0"}}')
    const url = (rest: string) => `${app.base}/api/projects/${project.id}/3d-tiles/${job.id}/${rest}`
    expect((await fetch(url('tileset.json'), { headers: client.headers })).status).toBe(200)
    for (const rest of ['tileset.json%00.png', '%00', 'model/%01tileset.json']) {
      const answer = await fetch(url(rest), { headers: client.headers })
      expect(answer.status, rest).toBe(404)
      expect(() => tilesFileWithoutAccessCheck(project.id, job.id, decodeURIComponent(rest))).toThrow(
        expect.objectContaining({ status: 404 }),
      )
    }
  })
})
