/**
 * GET /api/projects/{id}/export/{format}: who gets which file, and each file parsed back
 * (the .plan against a schema, the KMZ's zip entries and XML namespaces, the Litchi header).
 */
import { DOMParser } from '@xmldom/xmldom'
import { WPML_NS } from '#app/domain/survey/export-dji-kmz.server.ts'
import { KML_NS } from '#app/domain/survey/export-kml.server.ts'
import { LITCHI_HEADER } from '#app/domain/survey/export-litchi-csv.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { loader } from '#app/routes/api.projects.$id.export.$format.ts'
import { projects } from '#db/schema.ts'
import { createTestProject, signedInUser } from '#tests/factories.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'

let projectId: number
let admin: Awaited<ReturnType<typeof signedInUser>>
let pilot: Awaited<ReturnType<typeof signedInUser>>
let client: Awaited<ReturnType<typeof signedInUser>>

beforeAll(async () => {
  admin = await signedInUser('admin')
  pilot = await signedInUser('pilot')
  client = await signedInUser('client')
  const project = await createTestProject({
    clientId: client.user.id,
    paid: true,
    name: 'Paarl Vineyard #2',
    status: 'assigned',
  })
  getDb().update(projects).set({ pilotId: pilot.user.id }).where(eq(projects.id, project.id)).run()
  projectId = project.id
})

const get = (format: string, headers: Record<string, string>, id = projectId) =>
  callRoute(loader, `/api/projects/${id}/export/${format}`, { headers, params: { id: String(id), format } })

const SimpleItem = z.object({
  type: z.literal('SimpleItem'),
  autoContinue: z.boolean(),
  command: z.number().int(),
  doJumpId: z.number().int().positive(),
  frame: z.number().int(),
  params: z.array(z.number().nullable()).length(7),
})
const PlanSchema = z.object({
  fileType: z.literal('Plan'),
  version: z.literal(1),
  groundStation: z.string(),
  geoFence: z.object({
    version: z.literal(2),
    circles: z.array(z.unknown()),
    polygons: z.array(z.unknown()),
  }),
  rallyPoints: z.object({ version: z.literal(2), points: z.array(z.unknown()) }),
  mission: z.object({
    version: z.literal(2),
    firmwareType: z.number().int(),
    vehicleType: z.number().int(),
    cruiseSpeed: z.number(),
    hoverSpeed: z.number(),
    plannedHomePosition: z.tuple([z.number(), z.number(), z.number()]),
    items: z.array(
      z.union([
        SimpleItem,
        z.object({
          type: z.literal('ComplexItem'),
          complexItemType: z.literal('survey'),
          version: z.number(),
          angle: z.number(),
          polygon: z.array(z.tuple([z.number(), z.number()])).min(3),
          TransectStyleComplexItem: z.object({
            version: z.literal(2),
            TurnAroundDistance: z.number(),
            CameraTriggerInTurnAround: z.boolean(),
            CameraShots: z.number().int().positive(),
            CameraCalc: z
              .object({
                DistanceToSurface: z.number(),
                ImageDensity: z.number(),
                FrontalOverlap: z.number(),
                SideOverlap: z.number(),
                FocalLength: z.number(),
              })
              .passthrough(),
            VisualTransectPoints: z.array(z.tuple([z.number(), z.number()])).min(2),
            Items: z.array(SimpleItem).min(3),
          }),
        }),
      ]),
    ),
  }),
})

describe('who may export', () => {
  test('pilot and admin get every format; the client kml and geojson only; others 404', async () => {
    for (const format of ['plan', 'kmz', 'kml', 'geojson', 'litchi.csv']) {
      expect((await get(format, pilot.headers)).status).toBe(200)
      expect((await get(format, admin.headers)).status).toBe(200)
    }
    expect((await get('kml', client.headers)).status).toBe(200)
    expect((await get('geojson', client.headers)).status).toBe(200)
    expect((await get('plan', client.headers)).status).toBe(404)
    expect((await get('kmz', client.headers)).status).toBe(404)
    const stranger = await signedInUser('pilot')
    expect((await get('kml', stranger.headers)).status).toBe(404)
    const otherClient = await signedInUser('client')
    expect((await get('geojson', otherClient.headers)).status).toBe(404)
    expect((await get('gpx', admin.headers)).status).toBe(404)
    expect((await get('kml', admin.headers, 999999)).status).toBe(404)
    expect((await get('kml', {})).status).toBe(401)
  })
})

describe('the files parse back', () => {
  test('QGroundControl .plan: the schema, a survey item per area, named after the project', async () => {
    const res = await get('plan', pilot.headers)
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="paarl-vineyard-2.plan"')
    const plan = PlanSchema.parse(await res.json())
    const surveys = plan.mission.items.filter((i) => i.type === 'ComplexItem')
    expect(surveys).toHaveLength(2)
    expect(plan.mission.items[0]).toMatchObject({ command: 22 })
    expect(plan.mission.items.at(-1)).toMatchObject({ command: 20 })
    const jumpIds = plan.mission.items.flatMap((i) =>
      i.type === 'SimpleItem' ? [i.doJumpId] : i.TransectStyleComplexItem.Items.map((x) => x.doJumpId),
    )
    expect(new Set(jumpIds).size).toBe(jumpIds.length)
    // Agricultural mapping → 3 cm/px.
    expect(surveys[0]!.TransectStyleComplexItem.CameraCalc.ImageDensity).toBe(3)
  })

  test('DJI KMZ: wpmz/template.kml and wpmz/waylines.wpml with the KML and WPML namespaces', async () => {
    const res = await get('kmz', pilot.headers)
    expect(res.headers.get('Content-Type')).toBe('application/vnd.google-earth.kmz')
    expect(res.headers.get('Content-Disposition')).toContain('paarl-vineyard-2.kmz')
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()))
    expect(Object.keys(entries).sort()).toEqual(['wpmz/template.kml', 'wpmz/waylines.wpml'])
    for (const name of ['wpmz/template.kml', 'wpmz/waylines.wpml']) {
      const doc = new DOMParser().parseFromString(strFromU8(entries[name]!), 'text/xml')
      expect(doc.documentElement!.namespaceURI).toBe(KML_NS)
      expect(doc.documentElement!.lookupNamespaceURI('wpml')).toBe(WPML_NS)
      expect(doc.getElementsByTagNameNS(WPML_NS, 'missionConfig')).toHaveLength(1)
    }
    const waylines = new DOMParser().parseFromString(strFromU8(entries['wpmz/waylines.wpml']!), 'text/xml')
    expect(waylines.getElementsByTagNameNS(WPML_NS, 'waylineId').length).toBe(2)
    expect(waylines.getElementsByTagNameNS(WPML_NS, 'actionActuatorFunc')[0]!.textContent).toBe('takePhoto')
    const template = new DOMParser().parseFromString(strFromU8(entries['wpmz/template.kml']!), 'text/xml')
    expect(template.getElementsByTagNameNS(WPML_NS, 'templateType')[0]!.textContent).toBe('mapping2d')
  })

  test('KML: the areas and the flight lines', async () => {
    const res = await get('kml', client.headers)
    const doc = new DOMParser().parseFromString(await res.text(), 'text/xml')
    expect(doc.documentElement!.namespaceURI).toBe(KML_NS)
    expect(doc.getElementsByTagNameNS(KML_NS, 'Polygon')).toHaveLength(2)
    expect(doc.getElementsByTagNameNS(KML_NS, 'LineString').length).toBeGreaterThan(2)
  })

  test('GeoJSON: area polygons and transect lines', async () => {
    const res = await get('geojson', client.headers)
    expect(res.headers.get('Content-Disposition')).toContain('paarl-vineyard-2.geojson')
    const body = (await res.json()) as {
      type: string
      features: Array<{ properties: { kind: string }; geometry: { type: string } }>
    }
    expect(body.type).toBe('FeatureCollection')
    expect(body.features.filter((f) => f.properties.kind === 'area').map((f) => f.geometry.type)).toEqual([
      'Polygon',
      'Polygon',
    ])
    expect(
      body.features
        .filter((f) => f.properties.kind === 'transect')
        .every((f) => f.geometry.type === 'LineString'),
    ).toBe(true)
  })

  test('Litchi CSV: the metric header and one row per waypoint', async () => {
    const res = await get('litchi.csv', pilot.headers)
    expect(res.headers.get('Content-Disposition')).toContain('paarl-vineyard-2-litchi.csv')
    const [header, ...rows] = (await res.text()).trim().split('\n')
    expect(header!.split(',')).toEqual(LITCHI_HEADER)
    expect(
      header!.startsWith(
        'latitude,longitude,altitude(m),heading(deg),curvesize(m),rotationdir,gimbalmode,gimbalpitchangle,actiontype1,actionparam1',
      ),
    ).toBe(true)
    expect(
      header!.endsWith(
        'altitudemode,speed(m/s),poi_latitude,poi_longitude,poi_altitude(m),poi_altitudemode,photo_timeinterval,photo_distinterval',
      ),
    ).toBe(true)
    expect(rows.length % 4).toBe(0)
    for (const row of rows) expect(row.split(',')).toHaveLength(LITCHI_HEADER.length)
  })
})
