/**
 * The mission files read the way the programs that load them read them (issue "Mission
 * files"): GeoJSON ring order (RFC 7946 §3.1.6), descriptions from the stored plan, the
 * QGroundControl survey distance as QGC computes it on load, one flight over several
 * areas, and the DJI WPML drone/payload declarations.
 */
import { DOMParser, type Document as XmlDocument } from '@xmldom/xmldom'
import { flightPlanView } from '#app/domain/flight-plan/flight-plan.ts'
import { completeFlightPlan } from '#app/domain/projects/projects.server.ts'
import { adjustSurveyPlan } from '#app/domain/projects/survey-plan.server.ts'
import { listDroneProfiles } from '#app/domain/survey/drone-profiles.server.ts'
import { WPML_NS } from '#app/domain/survey/export-dji-kmz.server.ts'
import { KML_NS } from '#app/domain/survey/export-kml.server.ts'
import { surveyPlanOf } from '#app/domain/survey/project-plan.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { loader as exportLoader } from '#app/routes/api.projects.$id.export.$format.ts'
import { loader as flightPlanLoader } from '#app/routes/api.projects.$projectId.flight-plan.$format.ts'
import * as missionPage from '#app/routes/projects.$projectId.survey.tsx'
import { projects } from '#db/schema.ts'
import { CAPE_TOWN_AREA, createQuotedProject, createTestProject, signedInUser } from '#tests/factories.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { beforeAll, describe, expect, test } from 'vitest'

type Pilot = Awaited<ReturnType<typeof signedInUser>>
let pilot: Pilot
let admin: Pilot

/** A project assigned to the pilot, its areas given as [lng, lat] rings (drawn in any order). */
async function projectWith(name: string, rings: Array<Array<[number, number]>>) {
  const project = await createTestProject({ name, paid: true, status: 'assigned' })
  const plan = {
    address: 'Stellenbosch, Western Cape',
    projectType: 'agricultural-mapping',
    areas: rings.map((ring, i) => ({
      areaNumber: i + 1,
      area: 1000,
      coordinates: ring.map(([longitude, latitude], n) => ({ pointNumber: n + 1, latitude, longitude })),
      pilotInstructions: { flightPattern: 'Old text', returnToBase: 'Point 1', boundaryPoints: ring.length },
    })),
  }
  getDb()
    .update(projects)
    .set({ pilotId: pilot.user.id, flightPlan: JSON.stringify(plan) })
    .where(eq(projects.id, project.id))
    .run()
  return getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
}

const exportFile = (id: number, format: string, user = pilot) =>
  callRoute(exportLoader, `/api/projects/${id}/export/${format}`, {
    headers: user.headers,
    params: { id: String(id), format },
  })
const flightPlanFile = (id: number, format: string) =>
  callRoute(flightPlanLoader, `/api/projects/${id}/flight-plan/${format}`, {
    headers: pilot.headers,
    params: { projectId: String(id), format },
  })

/** Twice the signed area of a [lng, lat] ring (shoelace): > 0 counter-clockwise. */
function signedArea(ring: number[][]) {
  let sum = 0
  for (let i = 0; i + 1 < ring.length; i++)
    sum += ring[i]![0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * ring[i]![1]!
  return sum
}

/** QGeoCoordinate::distanceTo: haversine on Qt's mean Earth radius (6 371,0072 km). */
function qtDistance(a: { lat: number; lon: number }, b: { lat: number; lon: number }) {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLon = (b.lon - a.lon) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2
  return 2 * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h)) * 6_371_007.2
}

const CLOCKWISE_TRIANGLE: Array<[number, number]> = [
  [18.86, -33.93],
  [18.87, -33.93],
  [18.87, -33.94],
]
const COUNTER_CLOCKWISE_SQUARE: Array<[number, number]> = [
  [18.88, -33.95],
  [18.885, -33.95],
  [18.885, -33.945],
  [18.88, -33.945],
]
/** A U-shaped field (about 550 × 440 m, a 185 m wide notch from the north). */
const U_FIELD: Array<[number, number]> = [
  [18.86, -33.93],
  [18.862, -33.93],
  [18.862, -33.933],
  [18.864, -33.933],
  [18.864, -33.93],
  [18.866, -33.93],
  [18.866, -33.934],
  [18.86, -33.934],
]

beforeAll(async () => {
  pilot = await signedInUser('pilot')
  admin = await signedInUser('admin')
})

describe('GeoJSON follows RFC 7946 §3.1.6', () => {
  test('outer rings are counter-clockwise whichever way the client drew them, in both exports', async () => {
    const project = await projectWith('Ring order', [CLOCKWISE_TRIANGLE, COUNTER_CLOCKWISE_SQUARE])
    for (const res of [
      await exportFile(project.id, 'geojson'),
      await flightPlanFile(project.id, 'geojson'),
    ]) {
      expect(res.status).toBe(200)
      const body = (await res.json()) as {
        features: Array<{ geometry: { type: string; coordinates: number[][][] } }>
      }
      const polygons = body.features.filter((f) => f.geometry.type === 'Polygon')
      expect(polygons).toHaveLength(2)
      for (const polygon of polygons) {
        const [outer, ...holes] = polygon.geometry.coordinates
        expect(signedArea(outer!)).toBeGreaterThan(0)
        for (const hole of holes) expect(signedArea(hole)).toBeLessThan(0)
        expect(outer![0]).toEqual(outer!.at(-1))
      }
    }
  })
})

describe('descriptions come from the plan', () => {
  test('the flight-plan KML and GeoJSON and the mission KML state the stored overlaps', async () => {
    const project = await projectWith('Overlap words', [CLOCKWISE_TRIANGLE])
    const stored = surveyPlanOf(project)!
    expect(stored.settings.sideOverlap).toBe(70)
    const expectText = async (front: string, side: string) => {
      const wording = `${front} front and ${side} side overlap`
      const kml = await (await flightPlanFile(project.id, 'kml')).text()
      expect(kml).toContain(wording)
      const geo = (await (await flightPlanFile(project.id, 'geojson')).json()) as {
        features: Array<{ properties: { flightPattern: string } }>
      }
      expect(geo.features[0]!.properties.flightPattern).toContain(wording)
      const missionKml = await (await exportFile(project.id, 'kml')).text()
      expect(missionKml).toContain(wording)
      // Figures a person reads use the decimal comma.
      for (const text of [kml, missionKml]) expect(text).not.toMatch(/<description>[^<]*\d\.\d/)
    }
    await expectText('75%', '70%')
    const drone = listDroneProfiles().find((d) => d.name.includes('Mavic 3'))!
    adjustSurveyPlan(admin.user, project.id, {
      droneProfileId: drone.id,
      gsdCm: 2.5,
      frontOverlap: 80,
      sideOverlap: 65,
    })
    await expectText('80%', '65%')
    const flightPlan = flightPlanView(
      getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.flightPlan,
    )
    expect(flightPlan!.areas[0]!.flightPattern).toContain('80% front and 65% side overlap')
    const missionKml = await (await exportFile(project.id, 'kml')).text()
    expect(missionKml).toContain('2,5 cm/px')
  })
})

test('a new quote stores the pattern in the words of its own survey plan', async () => {
  const client = await signedInUser('client')
  const { project } = await createQuotedProject(client.user.id)
  const quoted = completeFlightPlan(client.user.id, project.id, { areas: [{ coordinates: CAPE_TOWN_AREA }] })
  const settings = surveyPlanOf(quoted)!.settings
  expect(flightPlanView(quoted.flightPlan)!.areas[0]!.flightPattern).toBe(
    `Parallel grid (lawnmower) lines across the area, ${settings.frontOverlap}% front and ${settings.sideOverlap}% side overlap`,
  )
})

describe('QGroundControl reads the survey distance the plan flies', () => {
  test('VisualTransectPoints carry the turnarounds: QGC’s distance equals the plan’s on a U-shaped field', async () => {
    const project = await projectWith('U field', [U_FIELD])
    const file = (await (await exportFile(project.id, 'plan')).json()) as {
      mission: { items: Array<Record<string, unknown>> }
    }
    const surveys = file.mission.items.filter((i) => i.type === 'ComplexItem')
    expect(surveys).toHaveLength(1)
    let complexDistance = 0
    for (const survey of surveys) {
      // SurveyComplexItem::load: version 2–5; TransectStyleComplexItem::_load: version 2 and its keys.
      expect(survey.complexItemType).toBe('survey')
      expect(survey.version).toBeGreaterThanOrEqual(2)
      expect(survey.version).toBeLessThanOrEqual(5)
      const inner = survey.TransectStyleComplexItem as Record<string, unknown>
      expect(inner.version).toBe(2)
      for (const key of ['TurnAroundDistance', 'CameraShots']) expect(typeof inner[key]).toBe('number')
      for (const key of ['CameraTriggerInTurnAround', 'HoverAndCapture', 'Refly90Degrees'])
        expect(typeof inner[key]).toBe('boolean')
      expect(typeof inner.CameraCalc).toBe('object')
      expect(Array.isArray(inner.Items)).toBe(true)
      // JsonHelper::loadGeoCoordinateArray: [lat, lon] pairs.
      const points = (inner.VisualTransectPoints as number[][]).map(([lat, lon]) => ({
        lat: lat!,
        lon: lon!,
      }))
      // _recalcComplexDistance: the sum of the legs between consecutive visual points.
      for (let i = 0; i + 1 < points.length; i++) complexDistance += qtDistance(points[i]!, points[i + 1]!)
      // With a turnaround distance every transect has four visual points.
      expect(points.length % 4).toBe(0)
    }
    const plan = surveyPlanOf(project)!
    expect(Math.abs(complexDistance - plan.summary.pathLengthM) / plan.summary.pathLengthM).toBeLessThan(
      0.002,
    )
  })
})

describe('several areas are one flight', () => {
  test('the flight time and batteries follow the exported path; DJI route durations add up to it', async () => {
    const project = await projectWith('Two fields', [CLOCKWISE_TRIANGLE, COUNTER_CLOCKWISE_SQUARE])
    const file = (await (await exportFile(project.id, 'plan')).json()) as {
      mission: {
        hoverSpeed: number
        plannedHomePosition: [number, number, number]
        items: Array<{
          type: string
          command?: number
          params?: Array<number | null>
          TransectStyleComplexItem?: {
            CameraCalc: { DistanceToSurface: number }
            Items: Array<{ command: number; params: Array<number | null> }>
          }
        }>
      }
    }
    const [homeLat, homeLon] = file.mission.plannedHomePosition
    const home = { lat: homeLat, lon: homeLon }
    const route = [home]
    let altitude = 0
    for (const item of file.mission.items) {
      if (item.type !== 'ComplexItem') continue
      altitude = item.TransectStyleComplexItem!.CameraCalc.DistanceToSurface
      for (const sub of item.TransectStyleComplexItem!.Items)
        if (sub.command === 16) route.push({ lat: sub.params[4]!, lon: sub.params[5]! })
    }
    route.push(home)
    let length = 0
    for (let i = 1; i < route.length; i++) length += qtDistance(route[i - 1]!, route[i]!)
    const expected = length / file.mission.hoverSpeed + (2 * altitude) / 3
    const plan = surveyPlanOf(project)!
    expect(Math.abs(plan.summary.flightTimeS - expected) / expected).toBeLessThan(0.003)
    const drone = plan.settings.drone
    expect(plan.summary.batteries).toBe(
      Math.ceil(plan.summary.flightTimeS / (drone.flightTimePerBatteryMin! * 60 * drone.usableBatteryShare!)),
    )

    // A plan stored under the old rules shows the time of the path its files fly.
    getDb()
      .update(projects)
      .set({ surveyPlan: JSON.stringify({ ...plan, summary: { ...plan.summary, flightTimeS: 1 } }) })
      .where(eq(projects.id, project.id))
      .run()
    const page = (await (
      await callRoute(missionPage.loader, `/projects/${project.id}/survey`, {
        headers: pilot.headers,
        params: { projectId: String(project.id) },
      })
    ).json()) as { plan: { summary: { flightTimeS: number } } }
    expect(page.plan.summary.flightTimeS).toBe(plan.summary.flightTimeS)

    const kmz = unzipSync(new Uint8Array(await (await exportFile(project.id, 'kmz')).arrayBuffer()))
    const waylines = new DOMParser().parseFromString(strFromU8(kmz['wpmz/waylines.wpml']!), 'text/xml')
    const durations = Array.from(waylines.getElementsByTagNameNS(WPML_NS, 'duration')).map((d) =>
      Number(d.textContent),
    )
    expect(durations).toHaveLength(2)
    const total = durations.reduce((a, b) => a + b, 0)
    expect(Math.abs(total - plan.summary.flightTimeS)).toBeLessThanOrEqual(2)
  })
})

describe('DJI WPML declares the drone and camera DJI publishes for each profile', () => {
  const wpmlOf = async (projectId: number) => {
    const res = await exportFile(projectId, 'kmz')
    return { res, entries: res.status === 200 ? unzipSync(new Uint8Array(await res.arrayBuffer())) : null }
  }
  const text = (doc: XmlDocument, name: string) =>
    Array.from(doc.getElementsByTagNameNS(WPML_NS, name)).map((e) => e.textContent)

  test.each([
    ['Mavic 3 Enterprise', { drone: '77', sub: '0', payload: '66' }],
    ['Matrice 350 RTK', { drone: '89', sub: '0', payload: '50' }],
  ])('%s: droneInfo, payloadInfo and a payloadParam in every mapping template', async (name, enums) => {
    const project = await projectWith(`WPML ${name}`, [CLOCKWISE_TRIANGLE, COUNTER_CLOCKWISE_SQUARE])
    const drone = listDroneProfiles().find((d) => d.name.includes(name))!
    adjustSurveyPlan(admin.user, project.id, {
      droneProfileId: drone.id,
      gsdCm: 2,
      frontOverlap: 80,
      sideOverlap: 70,
    })
    const { res, entries } = await wpmlOf(project.id)
    expect(res.status).toBe(200)
    for (const file of ['wpmz/template.kml', 'wpmz/waylines.wpml']) {
      const doc = new DOMParser().parseFromString(strFromU8(entries![file]!), 'text/xml')
      expect(text(doc, 'droneEnumValue')).toEqual([enums.drone])
      expect(text(doc, 'droneSubEnumValue')).toEqual([enums.sub])
      expect(text(doc, 'payloadEnumValue')).toEqual([enums.payload])
    }
    const template = new DOMParser().parseFromString(strFromU8(entries!['wpmz/template.kml']!), 'text/xml')
    const folders = Array.from(template.getElementsByTagNameNS(KML_NS, 'Folder'))
    expect(folders).toHaveLength(2)
    for (const folder of folders) {
      const params = folder.getElementsByTagNameNS(WPML_NS, 'payloadParam')
      expect(params).toHaveLength(1)
      expect(params[0]!.parentNode).toBe(folder)
      expect(params[0]!.getElementsByTagNameNS(WPML_NS, 'payloadPositionIndex')[0]!.textContent).toBe('0')
      expect(params[0]!.getElementsByTagNameNS(WPML_NS, 'imageFormat')[0]!.textContent).toBe('visable')
    }
  })

  test('a drone DJI Pilot 2 cannot fly gets no KMZ that claims to be another drone', async () => {
    const project = await projectWith('WPML Phantom', [CLOCKWISE_TRIANGLE])
    const drone = listDroneProfiles().find((d) => d.name === 'DJI Phantom 4 RTK')!
    adjustSurveyPlan(admin.user, project.id, {
      droneProfileId: drone.id,
      gsdCm: 2,
      frontOverlap: 80,
      sideOverlap: 70,
    })
    const { res } = await wpmlOf(project.id)
    expect(res.status).toBe(409)
    expect(((await res.json()) as { error: string }).error).toMatch(/DJI Pilot 2/)
    expect((await exportFile(project.id, 'litchi.csv')).status).toBe(200)
    const page = (await (
      await callRoute(missionPage.loader, `/projects/${project.id}/survey`, {
        headers: pilot.headers,
        params: { projectId: String(project.id) },
      })
    ).json()) as { exports: Array<{ format: string }> }
    expect(page.exports.map((e) => e.format)).toEqual(['plan', 'kml', 'geojson', 'litchi.csv'])
  })
})
