import { describe, expect, test } from 'vitest'

import {
  AREA_MESSAGES,
  areasToMultiPolygon,
  CheckFlightAreaRequestSchema,
  closedRing,
  flightPolygonToAreas,
  QuoteRequestSchema,
} from './areas.ts'
import { isInSouthAfrica } from './south-africa.ts'

const stellenbosch = [
  { latitude: -33.93, longitude: 18.86 },
  { latitude: -33.93, longitude: 18.87 },
  { latitude: -33.94, longitude: 18.87 },
  { latitude: -33.94, longitude: 18.86 },
]

function messagesOf(body: unknown, schema = QuoteRequestSchema) {
  const result = schema.safeParse(body)
  return result.success ? [] : result.error.issues.map((i) => i.message)
}

describe('QuoteRequestSchema', () => {
  test('accepts an open or a closed area', () => {
    expect(QuoteRequestSchema.safeParse({ areas: [{ coordinates: stellenbosch }] }).success).toBe(true)
    expect(
      QuoteRequestSchema.safeParse({ areas: [{ coordinates: [...stellenbosch, stellenbosch[0]] }] }).success,
    ).toBe(true)
  })

  test('refuses missing or empty areas', () => {
    expect(messagesOf({})).toContain(AREA_MESSAGES.noAreas)
    expect(messagesOf({ areas: [] })).toContain(AREA_MESSAGES.noAreas)
    expect(messagesOf({ areas: 'a field' })).toContain(AREA_MESSAGES.areasNotList)
  })

  test('fewer than 3 points, also when a closed ring repeats its first point', () => {
    expect(messagesOf({ areas: [{ coordinates: stellenbosch.slice(0, 2) }] })).toContain(
      AREA_MESSAGES.tooFewPoints,
    )
    const closedPair = [stellenbosch[0], stellenbosch[1], stellenbosch[0]]
    expect(messagesOf({ areas: [{ coordinates: closedPair }] })).toContain(AREA_MESSAGES.tooFewPoints)
  })

  test('bad numbers and ranges', () => {
    expect(
      messagesOf({ areas: [{ coordinates: [{ latitude: 'x', longitude: 18 }, ...stellenbosch] }] }),
    ).toContain(AREA_MESSAGES.latitudeNumber)
    expect(
      messagesOf({ areas: [{ coordinates: [{ latitude: -33, longitude: 200 }, ...stellenbosch] }] }),
    ).toContain(AREA_MESSAGES.longitudeRange)
    expect(
      messagesOf({ areas: [{ coordinates: [{ latitude: -95, longitude: 18 }, ...stellenbosch] }] }),
    ).toContain(AREA_MESSAGES.latitudeRange)
  })

  test('self-intersecting (a bow tie)', () => {
    const bowTie = [stellenbosch[0], stellenbosch[2], stellenbosch[1], stellenbosch[3]]
    expect(messagesOf({ areas: [{ coordinates: bowTie }] })).toEqual([AREA_MESSAGES.selfIntersecting])
  })

  test('outside South Africa (London, Windhoek)', () => {
    const square = (lat: number, lng: number) => [
      { latitude: lat, longitude: lng },
      { latitude: lat, longitude: lng + 0.01 },
      { latitude: lat + 0.01, longitude: lng + 0.01 },
    ]
    expect(messagesOf({ areas: [{ coordinates: square(51.5, -0.12) }] })).toEqual([
      AREA_MESSAGES.outsideSouthAfrica,
    ])
    expect(messagesOf({ areas: [{ coordinates: square(-22.56, 17.08) }] })).toEqual([
      AREA_MESSAGES.outsideSouthAfrica,
    ])
  })

  test('zero area (three points on a line)', () => {
    const line = [
      { latitude: -33.93, longitude: 18.86 },
      { latitude: -33.93, longitude: 18.87 },
      { latitude: -33.93, longitude: 18.88 },
    ]
    expect(messagesOf({ areas: [{ coordinates: line }] })).toEqual([AREA_MESSAGES.zeroArea])
  })

  test('10 000 points are refused quickly with a clear message', () => {
    const many = Array.from({ length: 10000 }, (_, i) => ({
      latitude: -33.9 + 0.01 * Math.sin((i / 10000) * 2 * Math.PI),
      longitude: 18.6 + 0.01 * Math.cos((i / 10000) * 2 * Math.PI),
    }))
    expect(messagesOf({ areas: [{ coordinates: many }] })).toEqual([AREA_MESSAGES.tooManyPoints])
  })

  test('at most 5000 points in all', () => {
    const ring = Array.from({ length: 900 }, (_, i) => ({
      latitude: -33.9 + 0.01 * Math.sin((i / 900) * 2 * Math.PI),
      longitude: 18.6 + 0.01 * Math.cos((i / 900) * 2 * Math.PI),
    }))
    expect(messagesOf({ areas: Array.from({ length: 5 }, () => ({ coordinates: ring })) })).toEqual([])
    expect(messagesOf({ areas: Array.from({ length: 6 }, () => ({ coordinates: ring })) })).toEqual([
      AREA_MESSAGES.tooManyPointsInAll,
    ])
  })

  test('at most 20 areas', () => {
    const areas = Array.from({ length: 21 }, () => ({ coordinates: stellenbosch }))
    expect(messagesOf({ areas })).toEqual([AREA_MESSAGES.tooManyAreas])
  })
})

describe('South Africa outline', () => {
  test.each([
    ['Cape Town', -33.92, 18.42],
    ['Cape Point', -34.36, 18.47],
    ['Cape Agulhas', -34.83, 20.01],
    ['Port Nolloth', -29.25, 16.87],
    ['Durban', -29.86, 31.02],
    ['Kosi Bay', -26.9, 32.88],
    ['Musina', -22.35, 30.04],
    ['Twee Rivieren', -26.47, 20.61],
    ['Johannesburg', -26.2, 28.05],
    ['Gqeberha', -33.96, 25.6],
  ])('%s is inside', (_name, lat, lng) => {
    expect(isInSouthAfrica(lat, lng)).toBe(true)
  })

  test.each([
    ['Windhoek', -22.56, 17.08],
    ['Harare', -17.83, 31.05],
    ['Walvis Bay', -22.95, 14.5],
    ['London', 51.5, -0.12],
  ])('%s is outside', (_name, lat, lng) => {
    expect(isInSouthAfrica(lat, lng)).toBe(false)
  })
})

describe('check-flight-area input forms', () => {
  const ring = closedRing(stellenbosch)

  test('areas array, { areas }, Polygon, MultiPolygon, Feature, FeatureCollection', () => {
    const forms = [
      [{ coordinates: stellenbosch }],
      { areas: [{ coordinates: stellenbosch }] },
      { type: 'Polygon', coordinates: [ring] },
      { type: 'MultiPolygon', coordinates: [[ring], [ring]] },
      { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } },
      {
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } }],
      },
    ]
    for (const flightPolygon of forms) {
      const result = CheckFlightAreaRequestSchema.safeParse({ flightPolygon })
      expect(result.success, JSON.stringify(flightPolygon)).toBe(true)
    }
    const multi = CheckFlightAreaRequestSchema.parse({
      flightPolygon: areasToMultiPolygon([{ coordinates: stellenbosch }]),
    })
    expect(multi.flightPolygon[0].coordinates).toHaveLength(5)
  })

  test('a Point, a LineString or a string is not a polygon', () => {
    for (const flightPolygon of [
      { type: 'Point', coordinates: [18.8, -33.9] },
      { type: 'LineString', coordinates: ring },
      'POLYGON((…))',
      null,
    ]) {
      expect(messagesOf({ flightPolygon }, CheckFlightAreaRequestSchema as never)).toEqual([
        AREA_MESSAGES.notPolygon,
      ])
    }
    expect(
      flightPolygonToAreas({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] } }],
      }),
    ).toBeNull()
  })

  test('GeoJSON coordinates are [lng, lat]', () => {
    const areas = flightPolygonToAreas({ type: 'Polygon', coordinates: [ring] })
    expect(areas?.[0].coordinates[0]).toEqual({ latitude: -33.93, longitude: 18.86 })
  })
})
