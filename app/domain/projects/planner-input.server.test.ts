import { DomainError } from '#app/lib/http/domain-error.ts'
import { describe, expect, test } from 'vitest'

import {
  areasFromPlannerForm,
  INPUT_MESSAGES,
  parseCoordinateText,
  parsePlanFile,
} from './planner-input.server.ts'

const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
  <Placemark><name>Launch point</name><Point><coordinates>18.86,-33.94,0</coordinates></Point></Placemark>
  <Placemark><name>Block A</name><Polygon><outerBoundaryIs><LinearRing><coordinates>
    18.86,-33.94,0 18.863,-33.94,0 18.863,-33.937,0 18.86,-33.937,0 18.86,-33.94,0
  </coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
</Document></kml>`

describe('parseCoordinateText', () => {
  test('one pair a line, a blank line between areas, comments skipped', () => {
    const areas = parseCoordinateText(
      '# block A\n-33.94, 18.86\n-33.937, 18.86\n-33.937, 18.863\n\n\n-33.95,18.87\r\n-33.948,18.87\n-33.948,18.872\n',
    )
    expect(areas).toHaveLength(2)
    expect(areas[0]!.coordinates).toEqual([
      { latitude: -33.94, longitude: 18.86 },
      { latitude: -33.937, longitude: 18.86 },
      { latitude: -33.937, longitude: 18.863 },
    ])
    expect(areas[1]!.coordinates).toHaveLength(3)
  })

  test('names the line that is not a pair', () => {
    expect(() => parseCoordinateText('-33.94, 18.86\nhello')).toThrow(
      'Line 2 is not a ‘latitude, longitude’ pair: hello',
    )
  })

  test('empty text gives no areas', () => {
    expect(parseCoordinateText('  \n\n')).toEqual([])
  })
})

describe('parsePlanFile', () => {
  test('reads the polygons of a KML file and skips its points', () => {
    const areas = parsePlanFile('site.KML', KML)
    expect(areas).toHaveLength(1)
    expect(areas[0]!.coordinates[0]).toEqual({ latitude: -33.94, longitude: 18.86 })
    expect(areas[0]!.coordinates).toHaveLength(5)
  })

  test('reads GeoJSON features, geometries and the API areas shape', () => {
    const polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [18.86, -33.94],
          [18.863, -33.94],
          [18.863, -33.937],
          [18.86, -33.94],
        ],
      ],
    }
    expect(
      parsePlanFile(
        'a.geojson',
        JSON.stringify({
          type: 'FeatureCollection',
          features: [{ type: 'Feature', properties: {}, geometry: polygon }],
        }),
      ),
    ).toHaveLength(1)
    expect(parsePlanFile('a.json', JSON.stringify(polygon))).toHaveLength(1)
    expect(
      parsePlanFile(
        'export',
        JSON.stringify({ areas: [{ coordinates: [{ latitude: -33.9, longitude: 18.8 }] }] }),
      ),
    ).toHaveLength(1)
  })

  test('a file without polygons, broken files and other types are refused with a reason', () => {
    const points = JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [18, -33] } }],
    })
    expect(() => parsePlanFile('p.geojson', points)).toThrow(INPUT_MESSAGES.noPolygons)
    expect(() => parsePlanFile('p.geojson', '{oops')).toThrow(INPUT_MESSAGES.unreadableGeoJson)
    expect(() => parsePlanFile('p.kml', '<kml><Document><Placemark>')).toThrow(DomainError)
    expect(() => parsePlanFile('p.pdf', '%PDF-1.4')).toThrow(INPUT_MESSAGES.fileType)
  })

  test('a KML with a DOCTYPE (entity expansion) is refused before parsing', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><kml><Document><name>&b;</name></Document></kml>`
    expect(() => parsePlanFile('bomb.kml', bomb)).toThrow(/DOCTYPE/)
  })

  test('files over 1 MB are refused', () => {
    expect(() => parsePlanFile('big.kml', `<kml>${' '.repeat(1024 * 1024)}</kml>`)).toThrow(
      INPUT_MESSAGES.fileTooLarge,
    )
  })
})

describe('areasFromPlannerForm', () => {
  test('takes the drawn areas first, then a file, then pasted coordinates, and names the field', async () => {
    const drawn = new FormData()
    drawn.set('areas', JSON.stringify([{ coordinates: [{ latitude: -33.9, longitude: 18.8 }] }]))
    drawn.set('coordinates', '-33.9, 18.8')
    await expect(areasFromPlannerForm(drawn)).resolves.toMatchObject({ field: 'areas' })

    const pasted = new FormData()
    pasted.set('coordinates', '-33.94, 18.86\n-33.94, 18.863\n-33.937, 18.863')
    const fromText = await areasFromPlannerForm(pasted)
    expect(fromText.field).toBe('coordinates')
    expect(fromText.areas).toHaveLength(1)
  })

  test('nothing given, or unreadable drawn areas, is refused with the fixed message or a reason', async () => {
    await expect(areasFromPlannerForm(new FormData())).rejects.toThrow(INPUT_MESSAGES.nothing)
    const broken = new FormData()
    broken.set('areas', '{oops')
    await expect(areasFromPlannerForm(broken)).rejects.toThrow('The drawn areas could not be read.')
  })
})

describe('pasted text limits', () => {
  test('a 200 000-character line is refused, naming the line', () => {
    expect(() => parseCoordinateText(`-33.94, 18.86\n${'1'.repeat(100_000)} ${' '.repeat(99_000)}x`)).toThrow(
      'Line 2 is too long (at most 100 characters).',
    )
  })

  test('text over the total cap is refused before any line is read', () => {
    expect(() => parseCoordinateText('-33.94, 18.86\n'.repeat(20_000))).toThrow(INPUT_MESSAGES.textTooLong)
  })

  // Their speed is measured by bench/coordinate-parse.bench.ts, never by a timed assertion.
  test('lines of the longest allowed length that backtracked before are refused with the line message', () => {
    expect(() => parseCoordinateText(`-3${' '.repeat(96)}x`)).toThrow(/Line 1 is not/)
  })
})
