/** POST /api/survey/plan: the documented answer, a drone profile or a bare camera, airspace warnings, bad input, limits. */
import { loadRsaAirspace } from '#app/domain/airspace/airspace.server.ts'
import { CALCULATOR_LIMIT_MESSAGE } from '#app/domain/pricing/api-limits.server.ts'
import { listDroneProfiles } from '#app/domain/survey/drone-profiles.server.ts'
import { PLAN_MESSAGES } from '#app/domain/survey/plan-schema.ts'
import { action, loader } from '#app/routes/api.survey.plan.ts'
import { signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { beforeAll, describe, expect, test } from 'vitest'

const vineyard = [
  { latitude: -33.93, longitude: 18.86 },
  { latitude: -33.93, longitude: 18.87 },
  { latitude: -33.94, longitude: 18.87 },
  { latitude: -33.94, longitude: 18.86 },
]
const nearAirport = [
  { latitude: -33.99, longitude: 18.62 },
  { latitude: -33.99, longitude: 18.63 },
  { latitude: -33.98, longitude: 18.63 },
  { latitude: -33.98, longitude: 18.62 },
]
const P4P = {
  sensorWidthMm: 13.2,
  sensorHeightMm: 8.8,
  focalLengthMm: 8.8,
  imageWidthPx: 5472,
  imageHeightPx: 3648,
}

let headers: Record<string, string>
const post = (json: unknown, h = headers) => callRoute(action, '/api/survey/plan', { json, headers: h })

beforeAll(async () => {
  ;({ headers } = await signedInUser('pilot'))
})

describe('POST /api/survey/plan', () => {
  test('a bare camera and a target GSD give exactly the documented fields', async () => {
    const res = await post({
      areas: [{ coordinates: vineyard }],
      camera: P4P,
      gsdCm: 2,
      frontOverlap: 75,
      sideOverlap: 70,
    })
    expect(res.status).toBe(200)
    const body = await readJson(res)
    expect(Object.keys(body).sort()).toEqual(
      [
        'altitudeM',
        'batteries',
        'flightTimeS',
        'footprintFrontM',
        'footprintSideM',
        'gsdCm',
        'lineSpacingM',
        'lines',
        'pathLengthM',
        'photoCount',
        'triggerDistanceM',
        'warnings',
      ].sort(),
    )
    expect(body).toMatchObject({
      gsdCm: 2,
      altitudeM: 73,
      footprintSideM: 109.4,
      lineSpacingM: 32.83,
      warnings: [],
    })
    const lines = body.lines as Array<{
      areaIndex: number
      coordinates: Array<{ latitude: number; longitude: number }>
    }>
    expect(lines.length).toBeGreaterThan(20)
    expect(lines[0]).toMatchObject({ areaIndex: 0 })
    expect(lines[0]!.coordinates).toHaveLength(2)
    expect(body.photoCount).toBeGreaterThan(0)
    expect(body.batteries).toBeGreaterThanOrEqual(1)
  })

  test('a drone profile, an altitude and an area in controlled airspace', async () => {
    await loadRsaAirspace()
    const drone = listDroneProfiles().find((d) => d.name === 'DJI Mavic 3 Enterprise (M3E)')!
    const res = await post({
      areas: [{ coordinates: nearAirport }],
      droneProfileId: drone.id,
      altitudeM: 130,
      frontOverlap: 80,
      sideOverlap: 70,
    })
    expect(res.status).toBe(200)
    const body = await readJson<{ warnings: string[]; altitudeM: number }>(res)
    expect(body.altitudeM).toBe(130)
    expect(body.warnings[0]).toContain('above the 120 m (400 ft) AGL limit')
    expect(body.warnings.some((w) => w.includes('CTR FACT') && w.includes('airspace zone'))).toBe(true)
  })

  test.each([
    [
      'no camera nor drone',
      { areas: [{ coordinates: vineyard }], gsdCm: 2 },
      PLAN_MESSAGES.cameraOrDrone,
      'camera',
    ],
    [
      'both altitude and GSD',
      { areas: [{ coordinates: vineyard }], camera: P4P, gsdCm: 2, altitudeM: 50 },
      PLAN_MESSAGES.altitudeOrGsd,
      'altitudeM',
    ],
    [
      'an unknown drone',
      { areas: [{ coordinates: vineyard }], droneProfileId: 9999, gsdCm: 2 },
      PLAN_MESSAGES.unknownDrone,
      'droneProfileId',
    ],
    [
      'an overlap of 120 %',
      { areas: [{ coordinates: vineyard }], camera: P4P, gsdCm: 2, frontOverlap: 120 },
      'Front overlap must be between 0 and 95',
      'frontOverlap',
    ],
    [
      'a focal length as text',
      { areas: [{ coordinates: vineyard }], camera: { ...P4P, focalLengthMm: '8.8' }, gsdCm: 2 },
      'Focal length must be a number',
      'camera.focalLengthMm',
    ],
    [
      'an area outside South Africa',
      {
        areas: [{ coordinates: vineyard.map((p) => ({ ...p, latitude: p.latitude + 40 })) }],
        camera: P4P,
        gsdCm: 2,
      },
      'Survey areas must be in South Africa',
      'areas.0.coordinates',
    ],
    [
      'a hole of two points',
      { areas: [{ coordinates: vineyard, holes: [vineyard.slice(0, 2)] }], camera: P4P, gsdCm: 2 },
      'Each hole needs at least 3 points',
      'areas.0.holes.0',
    ],
    [
      'a grid of too many lines',
      { areas: [{ coordinates: vineyard }], camera: P4P, gsdCm: 0.1, sideOverlap: 95 },
      'The survey grid would need too many lines: choose a coarser resolution or a lower side overlap',
      'gsdCm',
    ],
  ])('%s → 400 with the field error', async (_label, json, message, field) => {
    const res = await post(json)
    expect(res.status).toBe(400)
    const body = await readJson<{ error: string; fieldErrors: Record<string, string[]> }>(res)
    expect(body.error).toBe(message)
    expect(body.fieldErrors[field]).toContain(message)
  })

  test('not JSON → 415, broken JSON → 400; not signed in → 401; GET → 405', async () => {
    const notJson = await callRoute(action, '/api/survey/plan', { body: 'nope', method: 'POST', headers })
    expect(notJson.status).toBe(415)
    const brokenJson = await callRoute(action, '/api/survey/plan', {
      body: '{"areas": [',
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
    })
    expect(brokenJson.status).toBe(400)
    expect((await post({ areas: [{ coordinates: vineyard }], camera: P4P, gsdCm: 2 }, {})).status).toBe(401)
    expect((await callRoute(loader, '/api/survey/plan')).status).toBe(405)
  })

  test('shares the calculator limit of 240 calls a minute', async () => {
    const { headers: own } = await signedInUser('client')
    const body = { areas: [{ coordinates: vineyard }], camera: P4P, gsdCm: 5 }
    for (let i = 0; i < 240; i++) expect((await post(body, own)).status).toBe(200)
    const limited = await post(body, own)
    expect(limited.status).toBe(429)
    expect(await readJson(limited)).toEqual({ error: CALCULATOR_LIMIT_MESSAGE })
  })
})
