import { DomainError } from '#app/lib/http/domain-error.ts'
import {
  ENTITY_EXPANSION_KML,
  EXTERNAL_ENTITY_KML,
  MALFORMED_KML,
  VALID_KML,
} from '#tests/fixtures/admin-kml.ts'
import { describe, expect, test } from 'vitest'

import { isKmlFileName, KML_MAX_BYTES, parseKml } from './kml-parse.server.ts'

describe('parseKml', () => {
  test('reads every polygon placemark with its name and colour, skipping points', () => {
    const placemarks = parseKml(VALID_KML)
    expect(placemarks.map((p) => p.name)).toEqual([
      'Test Controlled Zone',
      'Test OR Tambo Buffer',
      'Test Danger Area',
    ])
    // KML colours are aabbggrr: ffff0000 is blue, 7f00ffff yellow, 7f0000ff red.
    expect(placemarks.map((p) => p.color)).toEqual(['#0000ff', '#ffff00', '#ff0000'])
    expect(placemarks[0]!.geometry.type).toBe('Polygon')
    expect(placemarks[0]!.geometry.coordinates[0]![0]).toEqual([10.4, -45.95])
  })

  test.each([
    ['malformed XML', MALFORMED_KML, /not well-formed/],
    ['an entity-expansion attack', ENTITY_EXPANSION_KML, /DOCTYPE/],
    ['an external entity', EXTERNAL_ENTITY_KML, /DOCTYPE/],
    ['an empty file', '   \n', /empty/],
    ['XML that is not KML', '<?xml version="1.0"?><gpx></gpx>', /not a KML document/],
    [
      'KML without polygons',
      '<kml><Document><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>',
      /no polygon/,
    ],
  ])('refuses %s with a clear message', (_label, text, message) => {
    expect(() => parseKml(text)).toThrow(message)
  })

  test('refuses a file over the size limit with 413', () => {
    const huge = `<kml>${' '.repeat(KML_MAX_BYTES)}</kml>`
    try {
      parseKml(huge)
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError)
      expect((error as DomainError).status).toBe(413)
    }
  })

  test('accepts .kml in any case and nothing else', () => {
    expect(isKmlFileName('zones.KML')).toBe(true)
    expect(isKmlFileName('zones.kml')).toBe(true)
    expect(isKmlFileName('zones.kmz')).toBe(false)
    expect(isKmlFileName('zones.kml.txt')).toBe(false)
  })
})
