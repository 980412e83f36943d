/**
 * Reading an admin's KML upload safely (ADR 042): a size limit, no DOCTYPE at all
 * (that rules out entity-expansion and external-entity attacks before any parser
 * sees the text), a strict XML parse where any error is fatal, then @tmcw/togeojson.
 * Only polygon placemarks become zones; each keeps its name and colour.
 */
import { kml } from '@tmcw/togeojson'
import { DOMParser } from '@xmldom/xmldom'
import type { Feature, Geometry, MultiPolygon, Polygon, Position } from 'geojson'

export const KML_MAX_BYTES = 5 * 1024 * 1024
export const KML_MAX_PLACEMARKS = 5000

export class KmlError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 = 400,
  ) {
    super(message)
  }
}

export const INVALID_FILE_TYPE = 'Invalid File Type'
export const SELECT_KML_FILE = 'Please select a KML file'

/** Spec section 5: the name must end with .kml, in any case. */
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
  return flat.length === 1 ? { type: 'Polygon', coordinates: flat[0]! } : { type: 'MultiPolygon', coordinates: flat }
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)

function colourOf(props: Record<string, unknown>) {
  const c = str(props.fill) ?? str(props.stroke)
  return c && /^#[0-9a-f]{6}$/i.test(c) ? c.toLowerCase() : null
}

/** Parses the text of a KML file; throws KmlError with a message for the admin. */
export function parseKml(text: string): KmlPlacemark[] {
  if (Buffer.byteLength(text, 'utf8') > KML_MAX_BYTES) {
    throw new KmlError(`The KML file is too large (the limit is ${KML_MAX_BYTES / 1024 / 1024} MB)`, 413)
  }
  const body = text.replace(/^\uFEFF/, '')
  if (!body.trim()) throw new KmlError('The KML file is empty')
  if (/<!DOCTYPE/i.test(body) || /<!ENTITY/i.test(body)) {
    throw new KmlError('The KML file contains a DOCTYPE or entity declarations, which are not allowed')
  }
  let doc: ReturnType<DOMParser['parseFromString']>
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message)
      },
    }).parseFromString(body, 'text/xml')
  } catch {
    throw new KmlError('The KML file is not well-formed XML')
  }
  const root = doc.documentElement
  if (!root || root.localName !== 'kml') throw new KmlError('The file is not a KML document (no <kml> root element)')
  const placemarkCount = doc.getElementsByTagName('Placemark').length
  if (placemarkCount > KML_MAX_PLACEMARKS) {
    throw new KmlError(`The KML file has too many placemarks (the limit is ${KML_MAX_PLACEMARKS})`, 413)
  }
  let features: Feature[]
  try {
    features = kml(doc as unknown as Document).features as Feature[]
  } catch {
    throw new KmlError('The KML file could not be read')
  }
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
  if (!placemarks.length) throw new KmlError('The KML file contains no polygon placemarks')
  return placemarks
}
