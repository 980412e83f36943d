/**
 * The site Map view's loader: other clients and pilots get 404; Before and After
 * default to the two latest surveys with ready viewing copies; a chosen pair is honoured and
 * an id from elsewhere falls back to the default.
 */
import { getDb } from '#app/lib/db/db.server.ts'
import * as siteMapRoute from '#app/routes/sites.$siteId_.map.tsx'
import {
  deliverableViews,
  projectFiles,
  projects,
  sites,
  type DeliverableKind,
  type RasterInfo,
} from '#db/schema.ts'
import { insertProject, signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const DAY = 24 * 3600_000

const RASTER: RasterInfo = {
  epsg: 32734,
  widthPx: 320,
  heightPx: 320,
  bandCount: 1,
  dataType: 'Float32',
  nodata: -9999,
  gsdCm: 25,
  boundsWgs84: [18.419, -33.921, 18.421, -33.919],
  footprintWgs84: [
    [18.419, -33.919],
    [18.421, -33.919],
    [18.421, -33.921],
    [18.419, -33.921],
    [18.419, -33.919],
  ],
  footprintHa: 0.64,
  overlapPercent: null,
}

/** A deliverable row as the upload and viewing-copy job leave it (ready unless told). */
function storeDeliverable(projectId: number, kind: DeliverableKind, status: 'ready' | 'queued' = 'ready') {
  const db = getDb()
  const file = db
    .insert(projectFiles)
    .values({
      projectId,
      fileName: `projects/${projectId}/${kind}.tif`,
      originalName: `${kind}.tif`,
      fileUrl: '',
      fileType: 'image/tiff',
      fileSize: 1000,
      fileCategory: 'processed_deliverable',
      deliverableKind: kind,
      rasterInfo: RASTER,
    })
    .returning()
    .get()
  db.insert(deliverableViews)
    .values({
      fileId: file.id,
      status,
      progressPercent: status === 'ready' ? 100 : 0,
      cogName: status === 'ready' ? `views/${file.id}.tif` : null,
      previewName: status === 'ready' ? `views/${file.id}.png` : null,
      minValue: kind === 'elevation' ? 100 : null,
      maxValue: kind === 'elevation' ? 110 : null,
    })
    .run()
  return file.id
}

async function siteWithSurveys() {
  const owner = await signedInUser('client')
  const db = getDb()
  const site = db.insert(sites).values({ clientId: owner.user.id, name: 'Quarry' }).returning().get()
  const survey = (daysAgo: number, view: 'ready' | 'queued' = 'ready') => {
    const project = insertProject({ clientId: owner.user.id, status: 'completed' })
    db.update(projects)
      .set({ siteId: site.id, completedAt: new Date(Date.now() - daysAgo * DAY) })
      .where(eq(projects.id, project.id))
      .run()
    const orthomosaicId = storeDeliverable(project.id, 'orthomosaic', view)
    const elevationId = storeDeliverable(project.id, 'elevation', view)
    return { projectId: project.id, orthomosaicId, elevationId }
  }
  const oldest = survey(90)
  const middle = survey(60)
  const latest = survey(30)
  const notReady = survey(1, 'queued')
  return { owner, site, oldest, middle, latest, notReady }
}

type Loaded = {
  site: { id: number; name: string }
  surveys: Array<{ projectId: number }>
  before: { projectId: number; elevation: { id: number } | null } | null
  after: { projectId: number; orthomosaic: { id: number } | null } | null
  problem: string | null
  change: {
    before: { id: number }
    after: { id: number }
    afterProjectId: number
    minimumM: number
    range: { min: number; max: number } | null
  } | null
}

function load(headers: Record<string, string>, siteId: number, query = '') {
  return callRoute(siteMapRoute.loader, `/sites/${siteId}/map${query}`, {
    headers,
    params: { siteId: String(siteId) },
  })
}

describe('site Map view loader', () => {
  test('another client, a pilot and an unknown site get 404; the owner and an admin see it', async () => {
    const { owner, site } = await siteWithSurveys()
    const other = await signedInUser('client')
    const pilot = await signedInUser('pilot')
    const admin = await signedInUser('admin')
    expect((await load(other.headers, site.id)).status).toBe(404)
    expect((await load(pilot.headers, site.id)).status).toBe(404)
    expect((await load(owner.headers, site.id + 1_000_000)).status).toBe(404)
    expect((await load(owner.headers, site.id)).status).toBe(200)
    expect((await load(admin.headers, site.id)).status).toBe(200)
  })

  test('Before and After default to the two latest surveys with ready viewing copies', async () => {
    const { owner, site, oldest, middle, latest } = await siteWithSurveys()
    const view = await readJson<Loaded>(await load(owner.headers, site.id))
    expect(view.surveys.map((s) => s.projectId)).toEqual([
      oldest.projectId,
      middle.projectId,
      latest.projectId,
    ])
    expect(view.before?.projectId).toBe(middle.projectId)
    expect(view.after?.projectId).toBe(latest.projectId)
    expect(view.after?.orthomosaic?.id).toBe(latest.orthomosaicId)
    expect(view.problem).toBeNull()
    expect(view.change).toMatchObject({
      before: { id: middle.elevationId },
      after: { id: latest.elevationId },
      afterProjectId: latest.projectId,
    })
  })

  test('two surveys compared share one height range and one minimum change', async () => {
    const { owner, site, oldest, middle } = await siteWithSurveys()
    // The earlier model reaches lower and not as high (100–110 m for the later one).
    getDb()
      .update(deliverableViews)
      .set({ minValue: 95.5, maxValue: 108 })
      .where(eq(deliverableViews.fileId, oldest.elevationId))
      .run()
    const view = await readJson<Loaded>(
      await load(owner.headers, site.id, `?before=${oldest.projectId}&after=${middle.projectId}`),
    )
    expect(view.change?.range).toEqual({ min: 95.5, max: 110 })
    // 25 cm models: twice the GSD, above the 5 cm floor.
    expect(view.change?.minimumM).toBeCloseTo(0.5)
  })

  test('a chosen pair is shown; an id that is not a survey of this site falls back to the default', async () => {
    const { owner, site, oldest, middle, latest, notReady } = await siteWithSurveys()
    const chosen = await readJson<Loaded>(
      await load(owner.headers, site.id, `?before=${oldest.projectId}&after=${middle.projectId}`),
    )
    expect([chosen.before?.projectId, chosen.after?.projectId]).toEqual([oldest.projectId, middle.projectId])

    const elsewhere = await siteWithSurveys()
    const odd = await readJson<Loaded>(
      await load(owner.headers, site.id, `?before=${elsewhere.oldest.projectId}&after=${notReady.projectId}`),
    )
    expect([odd.before?.projectId, odd.after?.projectId]).toEqual([middle.projectId, latest.projectId])
    const junk = await load(owner.headers, site.id, '?before=abc&after=1e9')
    expect(junk.status).toBe(200)

    // Only After chosen: Before is the survey flown just before it.
    const onlyAfter = await readJson<Loaded>(await load(owner.headers, site.id, `?after=${middle.projectId}`))
    expect(onlyAfter.before?.projectId).toBe(oldest.projectId)
  })

  test('the same survey twice, or one without an elevation model, shows why there is no change layer', async () => {
    const { owner, site, latest } = await siteWithSurveys()
    const same = await readJson<Loaded>(
      await load(owner.headers, site.id, `?before=${latest.projectId}&after=${latest.projectId}`),
    )
    expect(same.problem).toMatch(/same survey/)
    expect(same.change).toBeNull()

    const flat = insertProject({ clientId: owner.user.id, status: 'completed' })
    getDb()
      .update(projects)
      .set({ siteId: site.id, completedAt: new Date(Date.now() - 10 * DAY) })
      .where(eq(projects.id, flat.id))
      .run()
    storeDeliverable(flat.id, 'orthomosaic')
    const imageryOnly = await readJson<Loaded>(await load(owner.headers, site.id))
    expect(imageryOnly.after?.projectId).toBe(flat.id)
    expect(imageryOnly.problem).toMatch(/elevation model/)
    expect(imageryOnly.change).toBeNull()
  })

  test('a site with one comparable survey says two are needed', async () => {
    const owner = await signedInUser('client')
    const site = getDb().insert(sites).values({ clientId: owner.user.id, name: 'New' }).returning().get()
    const view = await readJson<Loaded>(await load(owner.headers, site.id))
    expect(view.before).toBeNull()
    expect(view.problem).toMatch(/Two surveys/)
  })
})

describe('site Map view: the no-JS change form', () => {
  function post(headers: Record<string, string>, siteId: number, form: Record<string, string>) {
    return callRoute(siteMapRoute.action, `/sites/${siteId}/map`, {
      headers,
      form,
      params: { siteId: String(siteId) },
    })
  }

  test('another client gets 404; a pair that cannot be compared is a 400 with the reason', async () => {
    const { owner, site, latest } = await siteWithSurveys()
    const other = await signedInUser('client')
    const pair = { intent: 'area-change', before: String(latest.projectId), after: String(latest.projectId) }
    expect((await post(other.headers, site.id, pair)).status).toBe(404)
    const same = await post(owner.headers, site.id, pair)
    expect(same.status).toBe(400)
    expect((await readJson<{ error: string }>(same)).error).toMatch(/same survey/)
  })

  test('a pair whose After survey has no survey areas says so', async () => {
    const { owner, site, middle, latest } = await siteWithSurveys()
    const response = await post(owner.headers, site.id, {
      before: String(middle.projectId),
      after: String(latest.projectId),
    })
    expect(response.status).toBe(400)
    expect((await readJson<{ error: string }>(response)).error).toMatch(/no survey areas/)
  })
})
