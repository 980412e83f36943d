import { describe, expect, test } from 'vitest'

import {
  loadGazetteer,
  OUTSIDE_SOUTH_AFRICA_MESSAGE,
  parseCoordinatePair,
  searchPlaces,
} from './places.server.ts'

describe('the South African gazetteer', () => {
  test('holds hundreds of South African places, all inside the country box', () => {
    const places = loadGazetteer()
    expect(places.length).toBeGreaterThan(500)
    for (const p of places) {
      expect(p.lat).toBeLessThan(-22)
      expect(p.lng).toBeGreaterThan(16)
    }
  })
})

describe('searchPlaces', () => {
  test('an exact name ranks first, then prefixes', () => {
    const outcome = searchPlaces('stellenbosch')
    expect(outcome.status).toBe('ok')
    expect(outcome.results[0]!.address).toBe('Stellenbosch, Western Cape, South Africa')
    expect(outcome.results[0]!.lat).toBeCloseTo(-33.93, 1)
  })

  test('prefix matches come before matches inside a name', () => {
    const addresses = searchPlaces('dur').results.map((r) => r.address)
    expect(addresses[0]).toMatch(/^Durban/)
  })

  test('accents and case are ignored', () => {
    expect(searchPlaces('CAPE TOWN').results[0]!.address).toMatch(/^Cape Town/)
  })

  test('typed coordinates in South Africa come back as one point named after the nearest town', () => {
    const outcome = searchPlaces('-33.9249, 18.4241')
    expect(outcome.status).toBe('ok')
    expect(outcome.results).toHaveLength(1)
    expect(outcome.results[0]).toMatchObject({ lat: -33.9249, lng: 18.4241, kind: 'coordinates' })
    expect(outcome.results[0]!.address).toMatch(/Cape Town/)
  })

  test('typed coordinates outside South Africa are refused', () => {
    const outcome = searchPlaces('51.5072, -0.1276')
    expect(outcome).toEqual({ status: 'empty', results: [], message: OUTSIDE_SOUTH_AFRICA_MESSAGE })
  })

  test('nothing found and an empty query give no results', () => {
    expect(searchPlaces('zzqqxx').status).toBe('empty')
    expect(searchPlaces('   ').status).toBe('empty')
  })

  test('results are capped', () => {
    expect(searchPlaces('a').results.length).toBeLessThanOrEqual(8)
  })
})

describe('parseCoordinatePair', () => {
  test('reads comma, semicolon and space separated pairs', () => {
    expect(parseCoordinatePair('-26.2, 28.04')).toEqual({ lat: -26.2, lng: 28.04 })
    expect(parseCoordinatePair('-26.2;28.04')).toEqual({ lat: -26.2, lng: 28.04 })
    expect(parseCoordinatePair('-26.2 28.04')).toEqual({ lat: -26.2, lng: 28.04 })
  })
  test('rejects text and impossible values', () => {
    expect(parseCoordinatePair('Pretoria')).toBeNull()
    expect(parseCoordinatePair('-126, 28')).toBeNull()
  })
})

describe('parseCoordinatePair on hostile text', () => {
  // Their speed is measured by bench/coordinate-parse.bench.ts, never by a timed assertion.
  test('long runs of blanks and digits are refused', () => {
    for (const text of [
      `1${' '.repeat(200_000)}x`,
      `-1${'\t '.repeat(50_000)}1${' '.repeat(50_000)}!`,
      '1'.repeat(200_000),
      `1.${'1'.repeat(200_000)}, 2`,
    ]) {
      expect(parseCoordinatePair(text)).toBeNull()
    }
  })

  test('one separator only, two plain decimals', () => {
    expect(parseCoordinatePair('-33.9, 18.4, 1')).toBeNull()
    expect(parseCoordinatePair('-33.9 , 18.4')).toEqual({ lat: -33.9, lng: 18.4 })
    expect(parseCoordinatePair('-33.9\t18.4')).toEqual({ lat: -33.9, lng: 18.4 })
    expect(parseCoordinatePair('1e1, 2')).toBeNull()
    expect(parseCoordinatePair(', 2')).toBeNull()
  })
})
