/**
 * Reads an admin's airspace KML upload into zones (spec §5 "KML upload", decisions.md
 * "Airspace"): each placemark with a polygon becomes a zone whose type, colour and fee
 * follow its style colour (blue/green → Controlled R850, yellow → OR Tambo Buffer R150,
 * red → Danger R0; see `classifyKmlPlacemark`). Placemarks without polygons are counted
 * as skipped. Store the result with `insertZones(zones)`.
 */
import { kml as kmlToGeoJson } from '@tmcw/togeojson'
import { DOMParser } from '@xmldom/xmldom'
import type { Geometry, MultiPolygon, Polygon, Position } from 'geojson'
import type { NewZone } from './airspace.server.ts'
import { classifyKmlPlacemark } from './zone-kinds.ts'

export class InvalidKmlError extends Error {
  constructor(message = 'The KML file could not be read') {
    super(message)
    this.name = 'InvalidKmlError'
  }
}

function cleanRing(ring: Position[]): Position[] | null {
  const points = ring.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]) && Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90)
  if (points.length !== ring.length || points.length < 3) return null
  const first = points[0]
  const last = points[points.length - 1]
  const closed = first[0] === last[0] && first[1] === last[1] ? points : [...points, first]
  return closed.length >= 4 ? closed.map((p) => [p[0], p[1]]) : null
}

function polygonsOf(geometry: Geometry | null): Position[][][] {
  if (!geometry) return []
  switch (geometry.type) {
    case 'Polygon':
      return [geometry.coordinates]
    case 'MultiPolygon':
      return geometry.coordinates
    case 'GeometryCollection':
      return geometry.geometries.flatMap(polygonsOf)
    default:
      return []
  }
}

export function parseAirspaceKml(text: string): { zones: NewZone[]; skipped: number } {
  let collection: ReturnType<typeof kmlToGeoJson>
  try {
    let parseError = false
    const doc = new DOMParser({
      onError: (level) => {
        if (level !== 'warning') parseError = true
      },
    }).parseFromString(text, 'text/xml')
    if (parseError || !doc.documentElement || doc.documentElement.nodeName.toLowerCase() !== 'kml') throw new InvalidKmlError()
    collection = kmlToGeoJson(doc as unknown as Document)
  } catch {
    throw new InvalidKmlError()
  }
  const zones: NewZone[] = []
  let skipped = 0
  collection.features.forEach((feature, index) => {
    const polygons = polygonsOf(feature.geometry)
      .map((rings) => rings.map(cleanRing))
      .filter((rings): rings is Position[][] => rings.length > 0 && rings.every((r) => r !== null))
    if (!polygons.length) {
      skipped++
      return
    }
    const props = (feature.properties ?? {}) as Record<string, unknown>
    const asText = (v: unknown) => (typeof v === 'string' ? v : null)
    const name = asText(props.name)?.trim() || `Zone ${index + 1}`
    const kind = classifyKmlPlacemark({ name, fill: asText(props.fill), stroke: asText(props.stroke), styleUrl: asText(props.styleUrl) })
    const polygon: Polygon | MultiPolygon =
      polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0] } : { type: 'MultiPolygon', coordinates: polygons }
    zones.push({
      zoneName: name,
      zoneType: kind.zoneType,
      color: kind.color,
      aviationFee: kind.aviationFee,
      polygon,
      source: 'kml',
      lowerIsSurface: true,
      requiresApproval: kind.requiresApproval,
    })
  })
  return { zones, skipped }
}
