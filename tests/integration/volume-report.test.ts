/**
 * The volume report PDF: its figures are the volume API's for the same polygon and base (read
 * back with pdftotext), it states the model, GSD, base and accuracy, draws the plan over the
 * orthomosaic, and is read as the project's deliverables are (another client 404).
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatCubicMetres, formatSquareMetres } from '#app/lib/format/numbers.ts'
import * as changeRoute from '#app/routes/api.projects.$id.deliverables.$fileId.change.ts'
import * as reportRoute from '#app/routes/api.projects.$id.deliverables.$fileId.volume-report[.]pdf.ts'
import * as volumeRoute from '#app/routes/api.projects.$id.deliverables.$fileId.volume.ts'
import * as mapRoute from '#app/routes/projects.$projectId.map.tsx'
import { annotations, deliverableViews, projectFiles, projects, sites } from '#db/schema.ts'
import { insertProject, projectWithTeam, signedInUser, storeRasterDeliverable } from '#tests/factories.ts'
import { buildConeDsm, buildOrthomosaic, buildViewingCog, type ConeDsm } from '#tests/helpers/dsm-fixtures.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const run = promisify(execFile)

let dir: string
let cone: ConeDsm
let ortho: string

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-volrep-'))
  cone = await buildConeDsm(dir, 32734)
  ortho = await buildOrthomosaic(dir, 32734, 1024)
}, 120_000)
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

const DAY_MS = 86_400_000
/** Within the month a client may read deliverables. */
const SURVEYED = new Date(Date.now() - 3 * DAY_MS)
const ACCURACY = { horizontalRmseM: 0.04, verticalRmseM: 0.06, gcpCount: 6, checkpointCount: 3 }

/** A completed project with the cone DSM (stated accuracy, 25 cm GSD), an orthomosaic with its COG, and notes. */
async function surveyed() {
  const team = await projectWithTeam({ status: 'completed', completedAt: SURVEYED })
  const db = getDb()
  const dsm = await storeRasterDeliverable(team.project.id, cone.path, 'elevation', team.admin.user.id)
  db.update(projectFiles)
    .set({ accuracy: { ...ACCURACY, gsdCm: null, source: 'admin' } })
    .where(eq(projectFiles.id, dsm.id))
    .run()
  const photo = await storeRasterDeliverable(team.project.id, ortho, 'orthomosaic', team.admin.user.id)
  const cogName = `views/volrep-${photo.id}.tif`
  await fs.mkdir(path.join(storagePaths().root, 'views'), { recursive: true })
  await buildViewingCog(ortho, path.join(storagePaths().root, cogName), 'orthomosaic')
  db.insert(deliverableViews)
    .values({ fileId: photo.id, status: 'ready', progressPercent: 100, cogName })
    .run()
  const note = (values: Partial<typeof annotations.$inferInsert>) =>
    db
      .insert(annotations)
      .values({
        projectId: team.project.id,
        authorId: team.client.user.id,
        kind: 'polygon',
        geometry: { type: 'Polygon', coordinates: [cone.ring] },
        title: 'Cone pile',
        color: '#e11d48',
        base: 'edge-mean',
        measurement: {},
        ...values,
      })
      .returning()
      .get()
  const pile = note({ title: 'Cone pile (edge mean)' })
  const typed = note({ title: 'Cone over 99 m – typed ✓', base: 'typed', baseElevationM: 99 })
  const line = note({
    title: 'Fence',
    kind: 'line',
    base: null,
    geometry: { type: 'LineString', coordinates: cone.ring.slice(0, 2) },
  })
  return { ...team, dsm, photo, pile, typed, line }
}

function report(headers: Record<string, string>, projectId: number, fileId: number, query: string) {
  return callRoute(
    reportRoute.loader,
    `/api/projects/${projectId}/deliverables/${fileId}/volume-report.pdf?${query}`,
    { headers, params: { id: String(projectId), fileId: String(fileId) } },
  )
}

async function pdftotext(bytes: ArrayBuffer) {
  const file = path.join(dir, `report-${Date.now()}.pdf`)
  await fs.writeFile(file, Buffer.from(bytes))
  const { stdout } = await run('pdftotext', ['-layout', file, '-'])
  return stdout.replace(/\u00a0/g, ' ')
}

type Volume = { areaM2: number; cutM3: number; fillM3: number; netM3: number; baseElevationM: number }

async function volumeApi(headers: Record<string, string>, projectId: number, fileId: number, base: unknown) {
  const res = await callRoute(
    volumeRoute.action,
    `/api/projects/${projectId}/deliverables/${fileId}/volume`,
    {
      headers,
      json: { polygon: { type: 'Polygon', coordinates: [cone.ring] }, base },
      params: { id: String(projectId), fileId: String(fileId) },
    },
  )
  expect(res.status).toBe(200)
  return readJson<Volume>(res)
}

const plain = (text: string) => text.replace(/\u00a0/g, ' ')

describe('GET …/volume-report.pdf', () => {
  test(
    'each polygon’s figures equal the volume API’s, with the model, GSD, base, accuracy and plan',
    { timeout: 400_000 },
    async () => {
      const s = await surveyed()
      const res = await report(
        s.client.headers,
        s.project.id,
        s.dsm.id,
        `annotationIds=${s.pile.id},${s.typed.id}`,
      )
      expect(res.status).toBe(200)
      expect(res.headers.get('Content-Type')).toBe('application/pdf')
      expect(res.headers.get('Content-Disposition')).toContain(
        `volume-report-${s.project.id}-${s.dsm.id}.pdf`,
      )
      const bytes = await res.arrayBuffer()
      const text = await pdftotext(bytes)
      const pages = text.split('\f').filter((p) => p.trim())
      expect(pages).toHaveLength(2)
      // A title's ✓ and en dash are drawn as typed (the embedded font), never as ? and -.
      expect(pages[1]).toContain('Cone over 99 m – typed ✓')
      expect(text).not.toContain('typed ?')

      const expected = [
        { page: pages[0]!, title: 'Cone pile (edge mean)', base: 'edge-mean', label: 'Edge mean' },
        {
          page: pages[1]!,
          title: 'Cone over 99 m – typed ✓',
          base: { elevationM: 99 },
          label: 'Typed height (99,00 m)',
        },
      ]
      for (const e of expected) {
        const api = await volumeApi(s.client.headers, s.project.id, s.dsm.id, e.base)
        const row = (label: string) => e.page.match(new RegExp(`^\\s*${label}\\s{2,}(.+?)\\s*$`, 'm'))?.[1]
        expect(e.page).toContain(e.title)
        expect(row('Area')).toBe(plain(formatSquareMetres(api.areaM2)))
        expect(row('Cut')).toBe(plain(formatCubicMetres(api.cutM3)))
        expect(row('Fill')).toBe(plain(formatCubicMetres(api.fillM3)))
        expect(row('Net')).toBe(plain(formatCubicMetres(api.netM3)))
        expect(row('Base')).toContain(e.label.split(' (')[0])
        expect(row('Elevation model')).toBe(path.basename(cone.path))
        expect(row('Survey date')).toBe(plain(formatDate(SURVEYED)))
        expect(row('Accuracy')).toBe('± 4 cm horizontal, ± 6 cm vertical, 6 GCPs, 3 check points')
        expect(e.page).toContain(`Plan over ${path.basename(ortho)}`)
        expect(e.page).toMatch(/\b\d+ m\b/) // the scale bar's length
      }
      // The cone stands 10 m on a 100 m plain: typed at 99 m adds a 1 m slab under the whole ring.
      const typed = await volumeApi(s.client.headers, s.project.id, s.dsm.id, { elevationM: 99 })
      expect(typed.cutM3).toBeGreaterThan(cone.ringAreaM2 * 0.9)
      // The plan is the orthomosaic's picture: an image is drawn on each page.
      expect(
        Buffer.from(bytes)
          .toString('latin1')
          .match(/\/Subtype\s*\/Image/g)?.length,
      ).toBeGreaterThanOrEqual(2)
    },
  )

  test(
    'access as the deliverables: the pilot and an admin read it, another client 404, signed out 401',
    { timeout: 120_000 },
    async () => {
      const s = await surveyed()
      const query = `annotationIds=${s.pile.id}`
      expect((await report(s.pilot.headers, s.project.id, s.dsm.id, query)).status).toBe(200)
      expect((await report(s.admin.headers, s.project.id, s.dsm.id, query)).status).toBe(200)
      const stranger = await signedInUser('client')
      const denied = await report(stranger.headers, s.project.id, s.dsm.id, query)
      expect(denied.status).toBe(404)
      expect(await readJson(denied)).toHaveProperty('error')
      expect((await report({}, s.project.id, s.dsm.id, query)).status).toBe(401)
    },
  )

  test(
    'another project’s note or file is 404; a line, the orthomosaic or a bad list is 400',
    { timeout: 120_000 },
    async () => {
      const s = await surveyed()
      const other = await surveyed()
      const status = async (fileId: number, query: string) =>
        (await report(s.admin.headers, s.project.id, fileId, query)).status
      expect(await status(s.dsm.id, `annotationIds=${other.pile.id}`)).toBe(404)
      expect(await status(other.dsm.id, `annotationIds=${s.pile.id}`)).toBe(404)
      expect(await status(s.dsm.id, `annotationIds=${s.line.id}`)).toBe(400)
      expect(await status(s.photo.id, `annotationIds=${s.pile.id}`)).toBe(400)
      expect(await status(s.dsm.id, 'annotationIds=')).toBe(400)
      expect(await status(s.dsm.id, 'annotationIds=1,x')).toBe(400)
      expect(
        await status(s.dsm.id, `annotationIds=${Array.from({ length: 21 }, (_, i) => i + 1).join(',')}`),
      ).toBe(400)
    },
  )

  test('the Map view lists the saved polygons (not lines) for the report', { timeout: 120_000 }, async () => {
    const s = await surveyed()
    const res = await callRoute(mapRoute.loader, `/projects/${s.project.id}/map`, {
      headers: s.client.headers,
      params: { projectId: String(s.project.id) },
    })
    expect(res.status).toBe(200)
    const data = await readJson<{ reportPolygons: { id: number; title: string }[] }>(res)
    expect(data.reportPolygons).toEqual([
      { id: s.pile.id, title: 'Cone pile (edge mean)' },
      { id: s.typed.id, title: 'Cone over 99 m – typed ✓' },
    ])
  })

  test(
    'the Map view offers the site’s earlier surveys to compare with; the form’s empty choice is the notes’ own base',
    { timeout: 300_000 },
    async () => {
      const s = await surveyed()
      const db = getDb()
      const site = db.insert(sites).values({ clientId: s.client.user.id, name: 'Quarry' }).returning().get()
      const onSite = (completedAt: Date) => {
        const p = insertProject({ clientId: s.client.user.id, status: 'completed', completedAt })
        db.update(projects).set({ siteId: site.id }).where(eq(projects.id, p.id)).run()
        return p
      }
      db.update(projects).set({ siteId: site.id }).where(eq(projects.id, s.project.id)).run()
      const older = onSite(new Date(Date.now() - 20 * DAY_MS))
      const old = onSite(new Date(Date.now() - 10 * DAY_MS))
      const unmodelled = onSite(new Date(Date.now() - 5 * DAY_MS))
      const later = onSite(new Date(Date.now() - DAY_MS))
      const models = new Map<number, number>()
      for (const p of [older, old, later])
        models.set(p.id, (await storeRasterDeliverable(p.id, cone.path, 'elevation', s.admin.user.id)).id)
      void unmodelled

      const offered = async (headers: Record<string, string>) => {
        const res = await callRoute(mapRoute.loader, `/projects/${s.project.id}/map`, {
          headers,
          params: { projectId: String(s.project.id) },
        })
        expect(res.status).toBe(200)
        const data = await readJson<{ reportEarlierSurveys: { fileId: number; projectName: string }[] }>(res)
        return data.reportEarlierSurveys.map((e) => e.fileId)
      }
      // Newest first; not the later survey, not one without an elevation model.
      expect(await offered(s.client.headers)).toEqual([models.get(old.id), models.get(older.id)])
      // The pilot flew this survey only: the client's other surveys are not theirs to see.
      expect(await offered(s.pilot.headers)).toEqual([])

      // The form sends an empty choice for "no earlier survey": each note's own base, not a 400.
      const res = await report(
        s.client.headers,
        s.project.id,
        s.dsm.id,
        `annotationIds=${s.pile.id}&againstFileId=`,
      )
      expect(res.status).toBe(200)
      expect(await pdftotext(await res.arrayBuffer())).toMatch(/^\s*Base\s{2,}Edge mean/m)
    },
  )

  test(
    'against an earlier survey: the base names it and the figures are the change API’s',
    { timeout: 300_000 },
    async () => {
      const s = await surveyed()
      const earlierProject = insertProject({
        clientId: s.client.user.id,
        status: 'completed',
        completedAt: new Date(Date.now() - 10 * DAY_MS),
      })
      const earlier = await storeRasterDeliverable(earlierProject.id, cone.path, 'elevation', s.admin.user.id)
      const res = await report(
        s.client.headers,
        s.project.id,
        s.dsm.id,
        `annotationIds=${s.pile.id}&againstFileId=${earlier.id}`,
      )
      expect(res.status).toBe(200)
      const page = await pdftotext(await res.arrayBuffer())
      const change = await callRoute(
        changeRoute.action,
        `/api/projects/${s.project.id}/deliverables/${s.dsm.id}/change`,
        {
          headers: s.client.headers,
          json: { againstFileId: earlier.id, polygon: { type: 'Polygon', coordinates: [cone.ring] } },
          params: { id: String(s.project.id), fileId: String(s.dsm.id) },
        },
      )
      const api = await readJson<Volume>(change)
      const row = (label: string) => page.match(new RegExp(`^\\s*${label}\\s{2,}(.+?)\\s*$`, 'm'))?.[1]
      expect(row('Base')).toContain(`An earlier survey: ${path.basename(cone.path)}`)
      expect(row('Cut')).toBe(plain(formatCubicMetres(api.cutM3)))
      expect(row('Net')).toBe(plain(formatCubicMetres(api.netM3)))
      // Another client's model is not a base this client may name.
      const stranger = await surveyed()
      expect(
        (
          await report(
            s.client.headers,
            s.project.id,
            s.dsm.id,
            `annotationIds=${s.pile.id}&againstFileId=${stranger.dsm.id}`,
          )
        ).status,
      ).toBe(404)
    },
  )
})
