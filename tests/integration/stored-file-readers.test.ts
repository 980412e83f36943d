/**
 * Every reader of stored files with a cache of zero bytes (FILE_STORE=s3 against s3rver,
 * FILE_CACHE_MAX_GB=0): each file is evicted as soon as it is safe in the bucket, and each
 * reader still gets it — the 3D view's facts, model, copies and still image (also through a
 * share link), the completion mail's thumbnail, the site report's thumbnails and change
 * figures, a volume measure, a document copy and the data export, the photos' EXIF.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { projectCoverage } from '#app/domain/coverage/coverage.server.ts'
import { measureVolume } from '#app/domain/deliverables/measure.server.ts'
import { startViewJobs } from '#app/domain/deliverables/pipeline.server.ts'
import { loadThreeDView, saveStill, shareThreeDView } from '#app/domain/deliverables/three-d-view.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { openShareToken } from '#app/domain/sharing/share-access.server.ts'
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { cacheUsage, evictCache } from '#app/lib/storage/file-cache.server.ts'
import { startFileStore } from '#app/lib/storage/file-store.server.ts'
import { queueStoredFile } from '#app/lib/storage/outbox.server.ts'
import * as exportRoute from '#app/routes/api.account.export.ts'
import * as completeRoute from '#app/routes/api.admin.complete-project.ts'
import * as copyDownloadRoute from '#app/routes/document-copies.$id.ts'
import * as copyUploadRoute from '#app/routes/document-copies.ts'
import * as reportRoute from '#app/routes/sites.$siteId.report[.]pdf.ts'
import { deliverableViews, documentCopies, projectFiles, projects } from '#db/schema.ts'
import {
  completedSiteSurvey,
  insertSite,
  projectWithTeam,
  signedInUser,
  storeRasterDeliverable,
} from '#tests/factories.ts'
import { buildSiteSurveys, PILE, reliefVolumeM3 } from '#tests/helpers/dsm-fixtures.ts'
import { multipart, pdfBytes, PNG_BYTES } from '#tests/helpers/files.ts'
import { geotaggedJpeg } from '#tests/helpers/geotagged-jpeg.ts'
import { httpAppForFile } from '#tests/helpers/http-app.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { groundCloudLas, zipBytes } from '#tests/helpers/rasters.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { startTestBucket, type TestBucket } from '#tests/helpers/s3.ts'
import { withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { encodePng } from '../../server/nodeodm-simulator/png.ts'

const smtp = withTestSmtp()
const app = httpAppForFile()
let bucket: TestBucket
let store: Awaited<ReturnType<typeof startFileStore>>
let dir: string
let built: Awaited<ReturnType<typeof buildSiteSurveys>>

beforeAll(async () => {
  process.env.FILE_CACHE_MAX_GB = '0'
  bucket = await startTestBucket()
  store = await startFileStore({ retryBaseMs: 50, pollMs: 200 })
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-zero-cache-'))
  built = await buildSiteSurveys(dir, { epsg: 32734, pixelM: 0.3 })
}, 60_000)
afterAll(async () => {
  await store.stop()
  await bucket.close()
  delete process.env.FILE_CACHE_MAX_GB
  resetEnvCache()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** A stored file's key (its row's file name). */
const keyOf = (fileId: number) =>
  getDb().select().from(projectFiles).where(eq(projectFiles.id, fileId)).get()!.fileName

const onDisk = (key: string) => fs.existsSync(path.join(storagePaths().root, key))

/** Everything safe in the bucket and nothing of it on DATA_DIR (what a zero-byte cache keeps). */
async function allEvicted(keys: string[]) {
  await store.idle()
  await evictCache()
  for (const key of keys) expect(onDisk(key), key).toBe(false)
  expect(cacheUsage()).toMatchObject({ over: false })
}

/** A file written under DATA_DIR by hand (a fixture of what a job made), queued to the bucket. */
function putStored(key: string, bytes: Buffer) {
  const full = path.join(storagePaths().root, key)
  fs.mkdirSync(path.dirname(full), { recursive: true })
  fs.writeFileSync(full, bytes)
  queueStoredFile(key, { size: bytes.length })
}

describe('with a cache of zero bytes every stored-file reader still works', () => {
  test('the 3D view: point cloud facts, the model, the copies and the still image, signed in and through a share link', async () => {
    const team = await projectWithTeam({ status: 'completed', completedAt: new Date() })
    const admin = { id: team.admin.user.id, role: 'admin' as const }
    const store3d = (name: string, bytes: Buffer) =>
      storeProjectFile({
        user: admin,
        projectId: team.project.id,
        category: 'processed_deliverable',
        originalName: name,
        source: Readable.from([bytes]),
      })
    const las = await store3d('Cloud.las', groundCloudLas())
    const obj = 'mtllib m.mtl\nv 0 0 0\nv 4 0 0\nv 4 3 0\nvt 0 0\nvt 1 0\nvt 1 1\nusemtl a\nf 1/1 2/2 3/3\n'
    const model = await store3d(
      'Model.zip',
      zipBytes({
        'm.obj': obj,
        'm.mtl': 'newmtl a\nmap_Kd t.png\n',
        't.png': encodePng(2, 2, 3, new Uint8Array(12).fill(90)),
      }),
    )
    // The originals go to the bucket and out of the cache while the view job wants them.
    await allEvicted([keyOf(las.id), keyOf(model.id)])
    const runner = startViewJobs()
    await runner.idle()
    await runner.stop()
    for (const fileId of [las.id, model.id]) {
      const row = getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
      expect(row, String(fileId)).toMatchObject({ status: 'ready', error: null })
    }
    const copies = [
      ...['facts.json', 'cloud.las', 'cloud-reduced.las'].map((name) => `views/${las.id}/${name}`),
      `views/${model.id}/model.glb`,
    ]
    await allEvicted(copies)

    const view = await loadThreeDView(team.client.user, team.project.id)
    const byFile = new Map(view.sources.map((s) => [s.fileId, s]))
    expect(byFile.get(las.id)).toMatchObject({ type: 'las', facts: { pointCount: 400, crs: 'EPSG:32734' } })
    expect(byFile.get(model.id)).toMatchObject({ type: 'glb' })
    const cloud = await fetch(`${app.base}${byFile.get(las.id)!.url}`, { headers: team.client.headers })
    expect(cloud.status).toBe(200)
    expect(Buffer.from(await cloud.arrayBuffer()).toString('latin1', 0, 4)).toBe('LASF')

    const png = Buffer.from(encodePng(4, 3, 3, new Uint8Array(36).fill(100)))
    expect(await saveStill(view, png)).toEqual({ saved: true })
    const still = `views/three-d/${team.project.id}-${view.stillKey}.png`
    await allEvicted([still])
    const token = createShareLink({ id: team.client.user.id, role: 'client' }, team.project.id, {
      allowDownload: false,
    })
      .url.split('/')
      .pop()!
    const shared = await shareThreeDView(token, await openShareToken(token, '127.0.0.1'))
    expect(shared.stillUrl).toMatch(new RegExp(`^/s/${token}/3d-still\\?v=`))
    expect(shared.sources).toEqual([
      expect.objectContaining({ fileId: las.id, facts: expect.objectContaining({ pointCount: 400 }) }),
    ])
    const sharedStill = await fetch(`${app.base}/s/${token}/3d-still`)
    expect(sharedStill.status).toBe(200)
    expect(Buffer.from(await sharedStill.arrayBuffer()).equals(png)).toBe(true)
  })

  test('the completion mail carries the orthomosaic’s thumbnail', async () => {
    const { admin, client, project } = await projectWithTeam({ status: 'in_progress' })
    getDb().update(projects).set({ isPaid: true }).where(eq(projects.id, project.id)).run()
    const ortho = await storeRasterDeliverable(project.id, built.ortho, 'orthomosaic', admin.user.id)
    queueStoredFile(ortho.fileName, { size: ortho.fileSize })
    const thumbnail = `views/${ortho.id}/thumbnail.png`
    putStored(thumbnail, PNG_BYTES)
    getDb()
      .insert(deliverableViews)
      .values({ fileId: ortho.id, status: 'ready', progressPercent: 100, thumbnailName: thumbnail })
      .run()
    await allEvicted([ortho.fileName, thumbnail])

    const res = await callRoute(completeRoute.action, '/api/admin/complete-project', {
      json: { projectId: project.id },
      headers: admin.headers,
    })
    expect(res.status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes(client.user.email.toLowerCase()))
    expect(mail.subject).toBe(`Your survey data is ready: ${project.name}`)
    expect(mail.attachments).toEqual([
      expect.objectContaining({ contentId: '<orthomosaic-thumbnail@kestrel>', size: PNG_BYTES.length }),
    ])
  })

  test('the site report’s thumbnails and change figures, and a volume measure', async () => {
    const client = await signedInUser('client')
    const admin = await signedInUser('admin')
    const site = insertSite(client.user.id, 'Philippi quarry')
    const keys: string[] = []
    const survey = async (completedAt: Date, dsm: string) => {
      const project = completedSiteSurvey(site, built.areaRing, completedAt)
      const model = await storeRasterDeliverable(project.id, dsm, 'elevation', admin.user.id)
      const ortho = await storeRasterDeliverable(project.id, built.ortho, 'orthomosaic', admin.user.id)
      for (const file of [model, ortho]) queueStoredFile(file.fileName, { size: file.fileSize })
      const thumbnail = `views/${ortho.id}/thumbnail.png`
      putStored(thumbnail, fs.readFileSync(built.thumbnail))
      getDb()
        .insert(deliverableViews)
        .values({ fileId: ortho.id, status: 'ready', progressPercent: 100, thumbnailName: thumbnail })
        .run()
      keys.push(model.fileName, ortho.fileName, thumbnail)
      return { project, model }
    }
    const before = await survey(new Date(Date.now() - 20 * 86_400_000), built.pile)
    const after = await survey(new Date(Date.now() - 10 * 86_400_000), built.flat)
    await allEvicted(keys)

    const res = await callRoute(
      reportRoute.loader,
      `/sites/${site.id}/report.pdf?before=${before.project.id}&after=${after.project.id}`,
      { headers: client.headers, params: { siteId: String(site.id) } },
    )
    expect(res.status).toBe(200)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(
      Buffer.from(bytes)
        .toString('latin1')
        .match(/\/Subtype \/Image/g)?.length,
    ).toBe(2)
    const text = (await pdfText(bytes)).replace(/[\s\u00a0]+/g, ' ')
    expect(text).toContain('1. Survey area 1')
    expect(text).not.toContain('could not be measured')

    await allEvicted(keys)
    const figures = await measureVolume(client.user, before.project.id, before.model.id, {
      ring: built.areaRing,
      base: 'edge-lowest',
    })
    const pile = reliefVolumeM3(PILE)
    expect(Math.abs(figures.netM3 - pile)).toBeLessThanOrEqual(pile * 0.05)
  })

  test('a document copy downloads and is in the data export; the photos’ EXIF is read', async () => {
    const admin = await signedInUser('admin')
    const pilot = await signedInUser('pilot')
    const pdf = Buffer.from(await pdfBytes('RPL'))
    const uploaded = await callRoute(copyUploadRoute.action, '/document-copies?back=/admin', {
      form: multipart(
        { pilotId: String(pilot.user.id), document: 'rpl' },
        { name: 'rpl.pdf', bytes: pdf, type: 'application/pdf' },
      ),
      headers: { ...admin.headers, Origin: 'http://localhost:3999' },
    })
    expect(uploaded.status).toBe(302)
    const copy = getDb().select().from(documentCopies).where(eq(documentCopies.pilotId, pilot.user.id)).get()!
    await allEvicted([copy.fileName])
    const download = await callRoute(copyDownloadRoute.loader, `/document-copies/${copy.id}`, {
      headers: pilot.headers,
      params: { id: String(copy.id) },
    })
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true)
    await allEvicted([copy.fileName])
    const zip = await callRoute(exportRoute.loader, '/api/account/export', { headers: pilot.headers })
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()))
    expect(JSON.parse(strFromU8(files['data.json']!)).pilotDocuments).toHaveLength(1)
    expect(Buffer.from(files[`documents/rpl-${copy.id}-rpl.pdf`]!).equals(pdf)).toBe(true)

    // A photo stored before positions were read at upload: read now, from the bucket.
    const { project } = await projectWithTeam({ status: 'in_progress' })
    const photo = await storeProjectFile({
      user: { id: admin.user.id, role: 'admin' },
      projectId: project.id,
      category: 'raw_image',
      originalName: 'DJI_0001.JPG',
      source: Readable.from([geotaggedJpeg({ latitude: -33.932, longitude: 18.868 })]),
    })
    getDb()
      .update(projectFiles)
      .set({ exifReadAt: null, gpsLatitude: null, gpsLongitude: null })
      .where(eq(projectFiles.id, photo.id))
      .run()
    await allEvicted([keyOf(photo.id)])
    const coverage = await projectCoverage({ id: admin.user.id, role: 'admin' }, project.id)
    expect(coverage.photos).toMatchObject({ total: 1, withGps: 1, unread: 0 })
  })
})
