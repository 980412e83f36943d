/**
 * Generates public/no-fly-zones.kml, the planner's static no-fly overlay, from the
 * prohibited (FAP) and restricted (FAR) zones of the shipped national dataset that
 * start at or near the ground (the ones a drone flight can enter; zones from
 * thousands of feet up are left out, as they would only clutter the map).
 *
 * Regenerate after replacing db/data/za-airspace.geojson, and commit the output:
 *   npx tsx scripts/generate-no-fly-kml.ts
 */
import fs from 'node:fs'
import path from 'node:path'

import { classifyNationalZone, type NationalZoneProperties } from '../app/domain/airspace/zone-kinds.ts'

interface Feature {
  properties: NationalZoneProperties & { lower: string; upper: string }
  geometry: { type: 'Polygon'; coordinates: number[][][] }
}

const source = path.resolve('db/data/za-airspace.geojson')
const dataset = JSON.parse(fs.readFileSync(source, 'utf8')) as {
  metadata: { source: string; dataVintage: string; primarySource: string }
  features: Feature[]
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const zones = dataset.features
  .filter((f) => !f.properties.duplicateOf && (f.properties.type === 'P' || f.properties.type === 'R'))
  .filter((f) => classifyNationalZone(f.properties).requiresApproval)
  .sort((a, b) => a.properties.name.localeCompare(b.properties.name))

const placemarks = zones.map((f) => {
  const kind = f.properties.type === 'P' ? 'Prohibited' : 'Restricted'
  const ring = f.geometry.coordinates[0].map(([lng, lat]) => `${lng},${lat}`).join(' ')
  return `    <Placemark>
      <name>${escapeXml(f.properties.name)}</name>
      <description>${kind} area, ${escapeXml(f.properties.lower)} to ${escapeXml(f.properties.upper)}. Needs SACAA/ATC approval.</description>
      <styleUrl>#${kind.toLowerCase()}</styleUrl>
      <ExtendedData><Data name="zoneType"><value>${kind}</value></Data></ExtendedData>
      <Polygon><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon>
    </Placemark>`
})

const description = [
  'Prohibited and restricted airspace of South Africa that starts at or near the ground.',
  'NOT FOR NAVIGATION. Outdated data (' + dataset.metadata.dataVintage.slice(0, 10) + ').',
  'Source: XCSoar xcsoar-data-content / SA gliding community, derived from ' +
    dataset.metadata.primarySource +
    '.',
  'Licence unknown; see db/data/AIRSPACE-ATTRIBUTION.md.',
].join(' ')

// KML colours are aabbggrr.
const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2">
  <Document>
    <name>South African no-fly zones (prohibited and restricted)</name>
    <description>${escapeXml(description)}</description>
    <Style id="prohibited"><LineStyle><color>ff1b1b99</color><width>2</width></LineStyle><PolyStyle><color>551b1b99</color></PolyStyle></Style>
    <Style id="restricted"><LineStyle><color>fff755a8</color><width>2</width></LineStyle><PolyStyle><color>44f755a8</color></PolyStyle></Style>
${placemarks.join('\n')}
  </Document>
</kml>
`

const out = path.resolve('public/no-fly-zones.kml')
fs.writeFileSync(out, kml)
console.log(`[no-fly-kml] ${zones.length} zones → ${path.relative(process.cwd(), out)}`)
