/**
 * What a share link gives away (issue 24): a view-only link reads a reduced viewing copy (the
 * elevation model as colours), can read the PDF report inline, and nothing is served from the
 * browser's cache after a revoke; a project moved back from completed stops its links; a file
 * missing on disk is a 404, not a closed connection.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { deleteAccount } from '#app/domain/account/account.server.ts'
import { updateProjectStatus } from '#app/domain/admin/admin-projects.server.ts'
import { prepareDeliverable, startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import { CRS_ITEM, reducedCopyName } from '#app/domain/deliverables/view-copies.server.ts'
import { missingReducedCopies } from '#app/domain/deliverables/view-jobs.server.ts'
import { absolutePathOf, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as shareLinksRoute from '#app/routes/api.projects.$id.share-links.ts'
import * as revokeRoute from '#app/routes/api.share-links.$id.ts'
import * as shareViewRoute from '#app/routes/s.$token_.files.$fileId_.view.$variant.ts'
import * as shareFileRoute from '#app/routes/s.$token_.files.$fileId.ts'
import * as viewerRoute from '#app/routes/s.$token.tsx'
import { auditLog, deliverableViews, projectFiles, shareLinks } from '#db/schema.ts'
import { deliveredProject, storeRasterDeliverable, TEST_PASSWORD } from '#tests/factories.ts'
import { buildConeDsm, gdalInfo, shadedOrthomosaic } from '#tests/helpers/rasters.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { and, eq, inArray, max } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'

const fileRow = (id: number) => getDb().select().from(projectFiles).where(eq(projectFiles.id, id)).get()!

let addressCounter = 0
const freshIp = () => `203.0.113.${(addressCounter++ % 250) + 1}`

async function linkFor(
  setting: Awaited<ReturnType<typeof deliveredProject>>,
  json: { allowDownload: boolean; fileIds?: number[] },
) {
  const res = await callRoute(shareLinksRoute.action, `/api/projects/${setting.project.id}/share-links`, {
    json,
    headers: setting.client.headers,
    params: { id: String(setting.project.id) },
  })
  expect(res.status).toBe(201)
  const { url, id } = await readJson<{ url: string; id: number }>(res)
  return { id, token: url.split('/s/')[1]! }
}

const openViewer = (token: string) =>
  callRoute(viewerRoute.loader, `/s/${token}`, { params: { token }, context: { clientIp: freshIp() } })

const fetchShared = (token: string, fileId: number) =>
  callRoute(shareFileRoute.loader, `/s/${token}/files/${fileId}`, {
    params: { token, fileId: String(fileId) },
    context: { clientIp: freshIp() },
  })

const fetchView = (token: string, fileId: number, variant: string, headers: Record<string, string> = {}) =>
  callRoute(shareViewRoute.loader, `/s/${token}/files/${fileId}/view/${variant}`, {
    params: { token, fileId: String(fileId), variant },
    headers,
    context: { clientIp: freshIp() },
  })

describe('a shared file missing on disk', () => {
  test('is a 404 with the JSON error, not a closed connection', async () => {
    const setting = await deliveredProject()
    const { token } = await linkFor(setting, { allowDownload: true })
    fs.rmSync(absolutePathOf(fileRow(setting.files.video.id)))
    const res = await fetchShared(token, setting.files.video.id)
    expect(res.status).toBe(404)
    expect(await readJson(res)).toEqual({ error: 'File not found' })
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer')
  })
})

/** The pixels of a raster (or of its first overview), band after band. */
function pixelsOf(file: string, openOptions: string[] = []) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-pixels-')), 'pixels.bin')
  execFileSync('gdal_translate', ['-q', '-of', 'ENVI', ...openOptions, file, out])
  return fs.readFileSync(out)
}

/** A delivered project with a real orthomosaic and elevation model whose viewing copies are made. */
async function deliveredRasters() {
  const setting = await deliveredProject()
  const ortho = await storeRasterDeliverable(
    setting.project.id,
    shadedOrthomosaic([260000, 6245000, 260020, 6244985]).ortho,
    'orthomosaic',
    setting.admin.user.id,
  )
  const dsm = await storeRasterDeliverable(
    setting.project.id,
    buildConeDsm({
      epsg: 32734,
      ullr: [260000, 6245000, 260020, 6244980],
      widthPx: 200,
      heightPx: 200,
      baseM: 40,
      peakM: 12,
      radiusPx: 80,
    }),
    'elevation',
    setting.admin.user.id,
  )
  for (const file of [ortho, dsm]) await prepareDeliverable(file.id)
  const runner = startViewJobs()
  await runner.idle()
  await runner.stop()
  const onDisk = (name: string) => path.join(storagePaths().root, name)
  const copies = (id: number) => {
    const cog = onDisk(view(id).cogName!)
    return { cog, reduced: path.join(storagePaths().root, reducedCopyName(view(id).cogName!)) }
  }
  return { ...setting, ortho, dsm, copies }
}

const view = (id: number) =>
  getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, id)).get()!

const pixelSize = (file: string) => Math.abs((gdalInfo(file).geoTransform as number[])[1]!)

describe('a view-only link reads a reduced copy', () => {
  // One conversion for the block (GDAL takes seconds); the tests run in order, the last removes a copy.
  let made: Awaited<ReturnType<typeof deliveredRasters>>
  beforeAll(async () => {
    made = await deliveredRasters()
  }, 120_000)

  test('the view job makes it: half the resolution (no level finer than 2 × the GSD), the elevation model as colours', async () => {
    const { ortho, dsm, copies } = made
    const orthoCopies = copies(ortho.id)
    expect(pixelSize(orthoCopies.reduced)).toBeGreaterThanOrEqual(pixelSize(orthoCopies.cog) * 1.99)
    expect(gdalInfo(orthoCopies.reduced).metadata.IMAGE_STRUCTURE.LAYOUT).toBe('COG')
    const dsmCopies = copies(dsm.id)
    expect(pixelSize(dsmCopies.reduced)).toBeGreaterThanOrEqual(pixelSize(dsmCopies.cog) * 1.99)
    const coloured = gdalInfo(dsmCopies.reduced)
    expect(coloured.bands.map((b: { type: string }) => b.type)).toEqual(['Byte', 'Byte', 'Byte', 'Byte'])
    expect(coloured.bands[3].colorInterpretation).toBe('Alpha')
    // The map reprojects each COG in the browser: the reduced copies stay in the raster's CRS, recorded for it.
    for (const copy of [orthoCopies.reduced, dsmCopies.reduced]) {
      expect(gdalInfo(copy).stac['proj:epsg']).toBe(32734)
      expect(gdalInfo(copy).metadata[''][CRS_ITEM]).toBe(
        '+proj=utm +zone=34 +south +datum=WGS84 +units=m +no_defs',
      )
    }
  }, 60_000)

  test('an orthomosaic is resampled once: its reduced copy is the first overview of its COG (to the rounding of JPEG)', () => {
    const { cog, reduced } = made.copies(made.ortho.id)
    const overview = gdalInfo(cog).bands[0].overviews[0].size
    expect(gdalInfo(reduced).size).toEqual(overview)
    const [ours, theirs] = [pixelsOf(reduced), pixelsOf(cog, ['-oo', 'OVERVIEW_LEVEL=0'])]
    expect(ours.length).toBe(theirs.length)
    let off = 0
    for (let i = 0; i < ours.length; i++) off += Math.abs(ours[i]! - theirs[i]!)
    // Re-encoding the same pixels moves them by about a level; resampling them again would blur the shading further.
    expect(off / ours.length).toBeLessThan(2)
    expect(gdalInfo(reduced).metadata.IMAGE_STRUCTURE.COMPRESSION).toMatch(/JPEG/)
  })

  test('through the link: the map and `cog` serve the reduced copy view-only, the full COG with downloads; no-cache, and nothing after a revoke', async () => {
    const setting = made
    const viewOnly = await linkFor(setting, { allowDownload: false })
    const withDownloads = await linkFor(setting, { allowDownload: true })
    const page = await readJson<{
      layers: Array<{ id: number; kind: string; cogUrl: string; rendered?: boolean }>
      files: Array<{ id: number; readUrl: string | null }>
    }>(await openViewer(viewOnly.token))
    expect(page.layers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: setting.dsm.id, kind: 'elevation', rendered: true }),
        expect.objectContaining({ id: setting.ortho.id, kind: 'orthomosaic' }),
      ]),
    )
    for (const file of [setting.ortho, setting.dsm]) {
      const { cog, reduced } = setting.copies(file.id)
      const small = await fetchView(viewOnly.token, file.id, 'cog')
      expect(small.status).toBe(200)
      expect(small.headers.get('Cache-Control')).toBe('private, no-cache, no-transform')
      expect(Buffer.from(await small.arrayBuffer()).equals(fs.readFileSync(reduced))).toBe(true)
      const full = await fetchView(withDownloads.token, file.id, 'cog')
      expect(Buffer.from(await full.arrayBuffer()).equals(fs.readFileSync(cog))).toBe(true)
    }
    const first = await fetchView(viewOnly.token, setting.ortho.id, 'cog')
    const etag = first.headers.get('ETag')!
    expect((await fetchView(viewOnly.token, setting.ortho.id, 'cog', { 'If-None-Match': etag })).status).toBe(
      304,
    )
    const revoked = await callRoute(revokeRoute.action, `/api/share-links/${viewOnly.id}`, {
      method: 'DELETE',
      headers: setting.client.headers,
      params: { id: String(viewOnly.id) },
    })
    expect(revoked.status).toBe(204)
    expect((await fetchView(viewOnly.token, setting.ortho.id, 'cog', { 'If-None-Match': etag })).status).toBe(
      410,
    )
  })

  test('a copy made before reduced copies existed is not mapped for a view-only link (the full COG is never served) until the view job makes it at its next start', async () => {
    const { copies, ortho } = made
    const { cog, reduced } = copies(ortho.id)
    fs.rmSync(reduced)
    const viewOnly = await linkFor(made, { allowDownload: false })
    const page = await readJson<{ layers: Array<{ id: number }> }>(await openViewer(viewOnly.token))
    expect(page.layers.map((l) => l.id)).not.toContain(ortho.id)
    expect((await fetchView(viewOnly.token, ortho.id, 'cog')).status).toBe(404)

    const runner = startViewJobs()
    await runner.idle()
    await runner.stop()
    expect(pixelSize(reduced)).toBeGreaterThanOrEqual(pixelSize(cog) * 1.99)
    expect(view(ortho.id).status).toBe('ready')
    const again = await readJson<{ layers: Array<{ id: number }> }>(await openViewer(viewOnly.token))
    expect(again.layers.map((l) => l.id)).toContain(ortho.id)
    const small = await fetchView(viewOnly.token, ortho.id, 'cog')
    expect(Buffer.from(await small.arrayBuffer()).equals(fs.readFileSync(reduced))).toBe(true)
  }, 120_000)

  test('a view-only read of a missing reduced copy has the running view job make it (an elevation model as colours)', async () => {
    const { copies, dsm } = made
    const runner = startViewJobs()
    await runner.idle()
    const { reduced } = copies(dsm.id)
    fs.rmSync(reduced)
    const viewOnly = await linkFor(made, { allowDownload: false })
    expect((await fetchView(viewOnly.token, dsm.id, 'cog')).status).toBe(404)
    await runner.idle()
    await runner.stop()
    const coloured = gdalInfo(reduced)
    expect(coloured.bands.map((b: { type: string }) => b.type)).toEqual(['Byte', 'Byte', 'Byte', 'Byte'])
    expect((await fetchView(viewOnly.token, dsm.id, 'cog')).status).toBe(200)
  }, 120_000)

  test('deleting the account deletes its deliverables’ viewing copies at once (POPIA)', async () => {
    const dirs = [made.ortho, made.dsm].map((f) => path.dirname(made.copies(f.id).cog))
    for (const dir of dirs) expect(fs.existsSync(dir)).toBe(true)
    await deleteAccount(made.client.user.id, TEST_PASSWORD)
    for (const dir of dirs) expect(fs.existsSync(dir)).toBe(false)
  })
})

describe('a view-only link and the PDF report', () => {
  test('reads it inline (not counted as a download); other files have no reader', async () => {
    const setting = await deliveredProject()
    const { id, token } = await linkFor(setting, { allowDownload: false })
    const page = await readJson<{ files: Array<{ id: number; readUrl: string | null }> }>(
      await openViewer(token),
    )
    const report = page.files.find((f) => f.id === setting.files.report.id)!
    expect(report.readUrl).toBe(`/s/${token}/files/${setting.files.report.id}/view/pdf`)
    expect(page.files.find((f) => f.id === setting.files.video.id)!.readUrl).toBeNull()
    const read = await fetchView(token, setting.files.report.id, 'pdf')
    expect(read.status).toBe(200)
    expect(read.headers.get('Content-Type')).toBe('application/pdf')
    expect(read.headers.get('Content-Disposition')).toMatch(/^inline;/)
    expect(read.headers.get('Cache-Control')).toBe('private, no-cache, no-transform')
    expect(
      Buffer.from(await read.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
    expect((await fetchView(token, setting.files.video.id, 'pdf')).status).toBe(404)
    expect(getDb().select().from(shareLinks).where(eq(shareLinks.id, id)).get()!.downloadCount).toBe(0)
  })
})

describe('a project moved back from completed', () => {
  test('stops its share links (410, revoked with an audit entry); the page says why, not that its owner revoked it', async () => {
    const setting = await deliveredProject()
    const { id, token } = await linkFor(setting, { allowDownload: true })
    expect((await openViewer(token)).status).toBe(200)
    await updateProjectStatus(setting.admin.user.id, setting.project.id, 'in_progress', '')
    const stopped = await openViewer(token)
    expect(stopped.status).toBe(410)
    const page = await readJson<{ state: string; message: string }>(stopped)
    expect(page.state).toBe('gone')
    expect(page.message).toBe(
      'This link stopped when the survey was reopened for changes to its data. Ask its owner for a new link once the survey is delivered again.',
    )
    expect(page.message).not.toContain('revoked')
    const file = await fetchShared(token, setting.files.report.id)
    expect(file.status).toBe(410)
    expect(await readJson(file)).toMatchObject({ reason: 'project-reopened' })
    // Its owner's list says so too.
    const listed = await callRoute(
      shareLinksRoute.loader,
      `/api/projects/${setting.project.id}/share-links`,
      {
        headers: setting.client.headers,
        params: { id: String(setting.project.id) },
      },
    )
    const { shareLinks: views } = await readJson<{
      shareLinks: Array<{ id: number; revokedReason: string }>
    }>(listed)
    expect(views.find((v) => v.id === id)).toMatchObject({
      state: 'revoked',
      revokedReason: 'project-reopened',
    })
    expect(getDb().select().from(shareLinks).where(eq(shareLinks.id, id)).get()!.revokedAt).toBeInstanceOf(
      Date,
    )
    const audit = getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'share-link.revoke'), eq(auditLog.entityId, String(id))))
      .get()!
    expect(JSON.parse(audit.after!)).toMatchObject({ reason: 'project-reopened' })
  })
})

describe('copies made before reduced copies existed', () => {
  test('are looked for a page of rows at a time (a start never reads the whole table), every one across the pages', async () => {
    const setting = await deliveredProject()
    const db = getDb()
    const ids = [setting.files.report.id, setting.files.image.id, setting.files.video.id]
    db.delete(deliverableViews).where(inArray(deliverableViews.fileId, ids)).run()
    const before =
      db
        .select({ last: max(deliverableViews.id) })
        .from(deliverableViews)
        .get()?.last ?? 0
    for (const fileId of ids)
      db.insert(deliverableViews)
        .values({ fileId, status: 'ready', cogName: `views/${fileId}/cog.tif`, finishedAt: new Date() })
        .run()
    // The middle one has its reduced copy already.
    const kept = path.join(storagePaths().root, reducedCopyName(`views/${ids[1]}/cog.tif`))
    fs.mkdirSync(path.dirname(kept), { recursive: true })
    fs.writeFileSync(kept, 'reduced')

    const first = missingReducedCopies(db, before, 2)
    expect(first.fileIds).toEqual([ids[0]])
    expect(first.next).not.toBeNull()
    const second = missingReducedCopies(db, first.next!, 2)
    expect(second).toEqual({ fileIds: [ids[2]], next: null })
  })
})
