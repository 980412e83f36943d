import { describe, expect, test } from 'vitest'
import { checkFlightArea, clearZones, insertZones } from './airspace.server.ts'
import { InvalidKmlError, parseAirspaceKml } from './kml.server.ts'

// KML colours are aabbggrr: ffff0000 is blue, ff00ffff yellow, ff0000ff red.
const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
  <Style id="blue"><PolyStyle><color>ffff0000</color></PolyStyle></Style>
  <Style id="yellow"><PolyStyle><color>ff00ffff</color></PolyStyle></Style>
  <Style id="red"><PolyStyle><color>ff0000ff</color></PolyStyle></Style>
  <Placemark><name>Controlled A</name><styleUrl>#blue</styleUrl>
    <Polygon><outerBoundaryIs><LinearRing><coordinates>22.5,-31.1 22.7,-31.1 22.7,-30.9 22.5,-30.9 22.5,-31.1</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
  <Placemark><name>Tambo buffer</name><styleUrl>#yellow</styleUrl>
    <MultiGeometry>
      <Polygon><outerBoundaryIs><LinearRing><coordinates>28.2,-26.2 28.3,-26.2 28.3,-26.1 28.2,-26.2</coordinates></LinearRing></outerBoundaryIs></Polygon>
      <Polygon><outerBoundaryIs><LinearRing><coordinates>28.4,-26.2 28.5,-26.2 28.5,-26.1</coordinates></LinearRing></outerBoundaryIs></Polygon>
    </MultiGeometry></Placemark>
  <Placemark><name>Range</name><styleUrl>#red</styleUrl>
    <Polygon><outerBoundaryIs><LinearRing><coordinates>20,-30 20.1,-30 20.1,-29.9 20,-30</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
  <Placemark><name>A pin</name><Point><coordinates>18.4,-33.9</coordinates></Point></Placemark>
</Document></kml>`

describe('parseAirspaceKml', () => {
  test('polygons become zones with the colour rules; points are skipped', () => {
    const { zones, skipped } = parseAirspaceKml(kml)
    expect(skipped).toBe(1)
    expect(zones.map((z) => [z.zoneName, z.zoneType, z.aviationFee, z.polygon.type])).toEqual([
      ['Controlled A', 'Controlled', 85000, 'Polygon'],
      ['Tambo buffer', 'OR Tambo Buffer', 15000, 'MultiPolygon'],
      ['Range', 'Danger', 0, 'Polygon'],
    ])
    // The open ring was closed.
    const multi = zones[1].polygon as GeoJSON.MultiPolygon
    expect(multi.coordinates[1][0]).toHaveLength(4)
  })

  test('uploaded zones price a check', () => {
    clearZones()
    insertZones(parseAirspaceKml(kml).zones)
    const result = checkFlightArea([
      { coordinates: [{ latitude: -31.0, longitude: 22.6 }, { latitude: -31.0, longitude: 22.61 }, { latitude: -30.99, longitude: 22.61 }] },
    ])
    expect(result).toMatchObject({ zoneName: 'Controlled A', aviationFee: 85000, zoneType: 'Controlled' })
  })

  test('not KML at all', () => {
    expect(() => parseAirspaceKml('hello')).toThrow(InvalidKmlError)
    expect(() => parseAirspaceKml('<html><body/></html>')).toThrow('The KML file could not be read')
    expect(() => parseAirspaceKml('<kml><Document><Placemark>')).toThrow(InvalidKmlError)
  })
})
