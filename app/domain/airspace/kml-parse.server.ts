/**
 * Reading an admin's airspace KML upload: the safe KML reader of
 * `geometry/kml-document.server.ts`, then only polygon placemarks become zones; each
 * keeps its name and colour.
 */
import { kmlError, readKmlDocument } from '#app/domain/geometry/kml-document.server.ts'
import type { Geometry, MultiPolygon, Polygon, Position } from 'geojson'

export const KML_MAX_BYTES = 5 * 1024 * 1024
export { kmlError }

export const INVALID_FILE_TYPE = 'Invalid File Type'
export const SELECT_KML_FILE = 'Please select a KML file'

/** The name must end with .kml, in any case. */
export function isKmlFileName(name: string) {
  return /\.kml$/i.test(name.trim())
}

export interface KmlPlacemark {
  name: string
  /** '#rrggbb' from the placemark's style (fill, else line), or null. */
  color: string | null
  /** The style id it refers to (e.g. 'restricted'), useful when colours are missing. */
  styleName: string | null
  description: string | null
  geometry: Polygon | MultiPolygon
}

function validPosition(p: Position) {
  const [lng, lat] = p
  return typeof lng === 'number' && typeof lat === 'number' && Math.abs(lng) <= 180 && Math.abs(lat) <= 90
}

function validRing(ring: Position[]) {
  return ring.length >= 4 && ring.every(validPosition)
}

/** Polygons (also inside a GeometryCollection) as one Polygon or MultiPolygon; null for anything else. */
function toAreaGeometry(geometry: Geometry | null): Polygon | MultiPolygon | null {
  if (!geometry) return null
  const polygons: Position[][][] = []
  const collect = (g: Geometry) => {
    if (g.type === 'Polygon') polygons.push(g.coordinates)
    else if (g.type === 'MultiPolygon') polygons.push(...g.coordinates)
    else if (g.type === 'GeometryCollection') g.geometries.forEach(collect)
  }
  collect(geometry)
  const valid = polygons.filter((rings) => rings.length > 0 && rings.every(validRing))
  if (!valid.length) return null
  // KML carries altitude; the zones are 2D.
  const flat = valid.map((rings) => rings.map((ring) => ring.map(([lng, lat]) => [lng!, lat!])))
  return flat.length === 1
    ? { type: 'Polygon', coordinates: flat[0]! }
    : { type: 'MultiPolygon', coordinates: flat }
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)

function colourOf(props: Record<string, unknown>) {
  const c = str(props.fill) ?? str(props.stroke)
  return c && /^#[0-9a-f]{6}$/i.test(c) ? c.toLowerCase() : null
}

/** Parses the text of a KML file; throws kmlError (a DomainError on `kmlFile`) with a message for the admin. */
export function parseKml(text: string): KmlPlacemark[] {
  const features = readKmlDocument(text, { maxBytes: KML_MAX_BYTES }).features
  const placemarks: KmlPlacemark[] = []
  features.forEach((feature, i) => {
    const geometry = toAreaGeometry(feature.geometry)
    if (!geometry) return
    const props = (feature.properties ?? {}) as Record<string, unknown>
    placemarks.push({
      name: (str(props.name) ?? `Zone ${i + 1}`).slice(0, 255),
      color: colourOf(props),
      styleName: str(props.styleUrl)?.replace(/^#/, '') ?? null,
      description: str(props.description),
      geometry,
    })
  })
  if (!placemarks.length) throw kmlError('The KML file contains no polygon placemarks')
  return placemarks
}
