/** /api/quote, /api/airspace/check-flight-area, /api/hubs, /api/airspace/zones with good and bad input. */
import { loadRsaAirspace } from '#app/domain/airspace/airspace.server.ts'
import { APPROVAL_WARNING } from '#app/domain/airspace/zone-kinds.ts'
import { AREA_MESSAGES, closedRing } from '#app/domain/geometry/areas.ts'
import { CALCULATOR_LIMIT_MESSAGE } from '#app/domain/pricing/api-limits.server.ts'
import { computeQuote } from '#app/domain/pricing/quote.ts'
import { DEFAULT_PRICING_SETTINGS } from '#app/domain/pricing/settings.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { action as checkAction } from '#app/routes/api.airspace.check-flight-area.ts'
import { loader as zonesLoader } from '#app/routes/api.airspace.zones.ts'
import { loader as hubsLoader } from '#app/routes/api.hubs.ts'
import { action as quoteAction, loader as quoteLoader } from '#app/routes/api.quote.ts'
import { hubs } from '#db/schema.ts'
import { signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { beforeAll, describe, expect, test } from 'vitest'

// A 0.01° square beside Cape Town International (inside CTR FACT).
const nearAirport = [
  { latitude: -33.99, longitude: 18.62 },
  { latitude: -33.99, longitude: 18.63 },
  { latitude: -33.98, longitude: 18.63 },
  { latitude: -33.98, longitude: 18.62 },
]
// A vineyard block near Stellenbosch, outside controlled airspace.
const vineyard = [
  { latitude: -33.93, longitude: 18.86 },
  { latitude: -33.93, longitude: 18.87 },
  { latitude: -33.94, longitude: 18.87 },
  { latitude: -33.94, longitude: 18.86 },
]

let headers: Record<string, string>

async function postQuote(json: unknown, h = headers) {
  return callRoute(quoteAction, '/api/quote', { json, headers: h })
}

describe('with no hubs', () => {
  beforeAll(async () => {
    ;({ headers } = await signedInUser('client'))
  })

  test('the quote is zero and says "No hubs configured"', async () => {
    const response = await postQuote({ areas: [{ coordinates: vineyard }] })
    expect(response.status).toBe(200)
    const body = await readJson(response)
    expect(body).toMatchObject({ totalInCents: 0, nearestHub: null, warnings: ['No hubs configured'] })
    expect(body.areaSqm).toBeGreaterThan(0)
  })
})

describe('with hubs and the national airspace', () => {
  beforeAll(async () => {
    ;({ headers } = await signedInUser('client'))
    getDb()
      .insert(hubs)
      .values([
        { name: 'Cape Town', address: 'Cape Town', latitude: -33.9249, longitude: 18.4241 },
        {
          name: 'Closed Paarl depot',
          address: 'Paarl',
          latitude: -33.7342,
          longitude: 18.9621,
          isActive: false,
        },
        { name: 'Johannesburg', address: 'Johannesburg', latitude: -26.2041, longitude: 28.0473 },
      ])
      .run()
    loadRsaAirspace()
  })

  describe('POST /api/quote', () => {
    test('signed out: 401', async () => {
      const response = await postQuote({ areas: [{ coordinates: vineyard }] }, {})
      expect(response.status).toBe(401)
      expect(await readJson(response)).toEqual({ error: 'Not signed in' })
    })

    test('GET is not allowed', async () => {
      expect((await callRoute(quoteLoader, '/api/quote', { headers })).status).toBe(405)
    })

    test('a quote beside the airport: the API shape, the CTR fee and the warning', async () => {
      const response = await postQuote({ areas: [{ coordinates: nearAirport }] })
      expect(response.status).toBe(200)
      const body = await readJson(response)
      expect(Object.keys(body).sort()).toEqual(
        [
          'areaSqm',
          'areaHectares',
          'nearestHub',
          'distanceFromHub',
          'basePrice',
          'adjustedPrice',
          'travelFee',
          'aviationFee',
          'airspaceZone',
          'airspaceZoneColor',
          'subtotal',
          'vatAmount',
          'totalInCents',
          'warnings',
        ].sort(),
      )
      expect(body).toMatchObject({
        nearestHub: { name: 'Cape Town' },
        aviationFee: 85000,
        airspaceZone: 'CTR FACT 118.10',
        airspaceZoneColor: '#f97316',
        warnings: [APPROVAL_WARNING],
      })
      expect(body.totalInCents).toBe((body.subtotal as number) + (body.vatAmount as number))
      expect(body).not.toHaveProperty('profitMargin')
    })

    test('the server figure equals the shared engine run by a browser with the same inputs', async () => {
      const areas = [{ coordinates: vineyard }, { coordinates: [...nearAirport, nearAirport[0]] }]
      const body = await readJson(await postQuote({ areas }))
      const browser = computeQuote({
        areas,
        hubs: [
          { id: 1, name: 'Cape Town', latitude: -33.9249, longitude: 18.4241 },
          { id: 3, name: 'Johannesburg', latitude: -26.2041, longitude: 28.0473 },
        ],
        settings: DEFAULT_PRICING_SETTINGS,
        aviation: { aviationFee: 85000, zoneName: 'CTR FACT 118.10', zoneColor: '#f97316' },
      })
      expect(body.totalInCents).toBe(browser.totalInCents)
      expect(body.distanceFromHub).toBeCloseTo(browser.distanceFromHub, 9)
    })

    test.each([
      ['not JSON', '{"areas": [', 'The request body must be valid JSON.'],
      ['JSON null', 'null', 'Send a JSON object: { "areas": [ { "coordinates": [...] } ] }'],
    ])('%s: 400', async (_label, body, message) => {
      const response = await callRoute(quoteAction, '/api/quote', {
        method: 'POST',
        body,
        headers: { ...headers, 'Content-Type': 'application/json' },
      })
      expect(response.status).toBe(400)
      expect((await readJson(response)).error).toBe(message)
    })

    const selfIntersecting = [vineyard[0], vineyard[2], vineyard[1], vineyard[3]]
    const tenThousand = Array.from({ length: 10000 }, (_, i) => ({
      latitude: -33.93 + 0.01 * Math.sin((i / 10000) * 2 * Math.PI),
      longitude: 18.86 + 0.01 * Math.cos((i / 10000) * 2 * Math.PI),
    }))
    const london = [
      { latitude: 51.5, longitude: -0.12 },
      { latitude: 51.5, longitude: -0.11 },
      { latitude: 51.51, longitude: -0.11 },
    ]
    test.each([
      ['no areas', {}, AREA_MESSAGES.noAreas, 'areas'],
      [
        'a GeoJSON Point instead of an area',
        { areas: [{ type: 'Point', coordinates: [18.86, -33.93] }] },
        AREA_MESSAGES.tooFewPoints,
        'areas.0.coordinates',
      ],
      [
        'a line of bare numbers',
        { areas: [{ coordinates: [18.8, -33.9, 18.9, -33.9] }] },
        'Each point needs a latitude and a longitude',
        'areas.0.coordinates.0',
      ],
      ['areas as a string', { areas: 'POLYGON((18 -33, …))' }, AREA_MESSAGES.areasNotList, 'areas'],
      [
        'fewer than 3 points',
        { areas: [{ coordinates: vineyard.slice(0, 2) }] },
        AREA_MESSAGES.tooFewPoints,
        'areas.0.coordinates',
      ],
      [
        'self-intersecting',
        { areas: [{ coordinates: selfIntersecting }] },
        AREA_MESSAGES.selfIntersecting,
        'areas.0.coordinates',
      ],
      [
        '10 000 points',
        { areas: [{ coordinates: tenThousand }] },
        AREA_MESSAGES.tooManyPoints,
        'areas.0.coordinates',
      ],
      [
        'outside South Africa',
        { areas: [{ coordinates: london }] },
        AREA_MESSAGES.outsideSouthAfrica,
        'areas.0.coordinates',
      ],
      [
        'a latitude that is text',
        { areas: [{ coordinates: [{ latitude: 'south', longitude: 18.8 }, ...vineyard] }] },
        AREA_MESSAGES.latitudeNumber,
        'areas.0.coordinates.0.latitude',
      ],
    ])('%s: 400 with a field error', async (_label, json, message, field) => {
      const response = await postQuote(json)
      expect(response.status).toBe(400)
      const body = await readJson<{ error: string; fieldErrors: Record<string, string[]> }>(response)
      expect(body.error).toBe(message)
      expect(body.fieldErrors[field]).toContain(message)
    })
    test('one account is limited to 240 calculator calls a minute', async () => {
      const { headers: own } = await signedInUser('client')
      const body = { flightPolygon: [{ coordinates: vineyard }] }
      for (let i = 0; i < 240; i++) {
        const response = await callRoute(checkAction, '/api/airspace/check-flight-area', {
          json: body,
          headers: own,
        })
        expect(response.status).toBe(200)
      }
      const limited = await postQuote({ areas: [{ coordinates: vineyard }] }, own)
      expect(limited.status).toBe(429)
      expect(await readJson(limited)).toEqual({ error: CALCULATOR_LIMIT_MESSAGE })
      expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
      // Other accounts are not affected.
      expect((await postQuote({ areas: [{ coordinates: vineyard }] })).status).toBe(200)
    })
  })

  describe('POST /api/airspace/check-flight-area', () => {
    test('areas or GeoJSON give the API result', async () => {
      for (const flightPolygon of [
        [{ coordinates: nearAirport }],
        { type: 'Polygon', coordinates: [closedRing(nearAirport)] },
      ]) {
        const response = await callRoute(checkAction, '/api/airspace/check-flight-area', {
          json: { flightPolygon },
          headers,
        })
        expect(response.status).toBe(200)
        const body = await readJson(response)
        expect(body).toMatchObject({
          intersectsZone: true,
          zoneName: 'CTR FACT 118.10',
          zoneType: 'CTR',
          color: '#f97316',
          aviationFeeRands: 850,
        })
        expect(body.zones).toEqual(
          expect.arrayContaining([
            expect.objectContaining({
              zoneName: 'CTR FACT 118.10',
              aviationFee: 85000,
              id: expect.any(Number),
            }),
          ]),
        )
      }
    })

    test('a Point is refused; signed out is 401', async () => {
      const point = await callRoute(checkAction, '/api/airspace/check-flight-area', {
        json: { flightPolygon: { type: 'Point', coordinates: [18.6, -33.9] } },
        headers,
      })
      expect(point.status).toBe(400)
      expect((await readJson(point)).error).toBe(AREA_MESSAGES.notPolygon)
      const signedOut = await callRoute(checkAction, '/api/airspace/check-flight-area', {
        json: { flightPolygon: [{ coordinates: vineyard }] },
      })
      expect(signedOut.status).toBe(401)
    })
  })

  describe('map data', () => {
    test('GET /api/hubs: active hubs only, the API fields', async () => {
      const response = await callRoute(hubsLoader, '/api/hubs', { headers })
      expect(response.status).toBe(200)
      const body = await readJson<Array<Record<string, unknown>>>(response)
      expect(body.map((h) => h.name)).toEqual(['Cape Town', 'Johannesburg'])
      expect(Object.keys(body[0]).sort()).toEqual([
        'address',
        'description',
        'id',
        'latitude',
        'longitude',
        'name',
      ])
      expect((await callRoute(hubsLoader, '/api/hubs')).status).toBe(401)
    })

    test('GET /api/airspace/zones: active zones with a GeoJSON polygon', async () => {
      const response = await callRoute(zonesLoader, '/api/airspace/zones', { headers })
      expect(response.status).toBe(200)
      const body = await readJson<Array<Record<string, unknown> & { polygon: { type: string } }>>(response)
      expect(body).toHaveLength(255)
      const ctr = body.find((z) => z.zoneName === 'CTR FACT 118.10')!
      expect(Object.keys(ctr).sort()).toEqual([
        'aviationFee',
        'color',
        'id',
        'polygon',
        'zoneName',
        'zoneType',
      ])
      expect(ctr.polygon.type).toBe('Polygon')
      expect((await callRoute(zonesLoader, '/api/airspace/zones')).status).toBe(401)
    })

    test('GET /api/airspace/zones: 304 for the current ETag, a new ETag after a change', async () => {
      const first = await callRoute(zonesLoader, '/api/airspace/zones', { headers })
      const etag = first.headers.get('ETag')!
      expect(etag).toMatch(/^"zones-.+"$/)
      const again = await callRoute(zonesLoader, '/api/airspace/zones', {
        headers: { ...headers, 'If-None-Match': etag },
      })
      expect(again.status).toBe(304)
      loadRsaAirspace()
      const changed = await callRoute(zonesLoader, '/api/airspace/zones', {
        headers: { ...headers, 'If-None-Match': etag },
      })
      expect(changed.status).toBe(200)
      expect(changed.headers.get('ETag')).not.toBe(etag)
    })
  })
})
