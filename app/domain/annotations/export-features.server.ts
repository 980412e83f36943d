/**
 * The notes as GeoJSONSeq lines for ogr2ogr, one note at a time, with each format's columns:
 * the attribute columns (at most 10 letters each: the shapefile's limit), CSV text escaped
 * against formulas, KML's colour as an OGR style, and DXF's layers with a title (a LABEL point
 * GDAL writes as text) beside each shape.
 */
import { escapeFormula } from '#app/lib/format/csv.server.ts'

import type { AnnotationView, NoteExportFormat } from './annotation-schemas.ts'

type Feature = { properties: Record<string, unknown>; geometry: AnnotationView['geometry'] }

/** A note's columns. */
function columnsOf(note: AnnotationView, crs: string) {
  const m = note.measurement
  return {
    id: note.id,
    kind: note.kind,
    title: note.title,
    note: note.note,
    color: note.color,
    author: note.authorName,
    created: note.createdAt,
    stockpile: note.stockpileKind,
    length_m: m.lengthM ?? null,
    area_m2: m.areaM2 ?? null,
    cut_m3: m.cutM3 ?? null,
    fill_m3: m.fillM3 ?? null,
    net_m3: m.netM3 ?? null,
    base: m.base ?? null,
    base_elev: m.baseElevationM ?? null,
    crs,
  }
}

/** Every text column through the one CSV rule (ogr2ogr writes this CSV, not csv-stringify). */
function escapedText(columns: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(columns).map(([k, v]) => [k, typeof v === 'string' ? escapeFormula(v) : v]),
  )
}

/** Google Earth's own round marker: tinted the note's colour (an icon KML viewers all know). */
const KML_POINT_ICON = 'https://maps.google.com/mapfiles/kml/shapes/placemark_circle.png'

/** The note's colour as an OGR style string (KML reads it into the placemark's Style). */
function styleOf(note: AnnotationView) {
  if (note.kind === 'point') return `SYMBOL(id:"${KML_POINT_ICON}",c:${note.color})`
  const pen = `PEN(c:${note.color},w:3px)`
  return note.kind === 'polygon' ? `${pen};BRUSH(fc:${note.color}33)` : pen
}

/** Where a title is written: the point, a line's middle corner, the middle of a polygon's bounds. */
function labelPoint(geometry: AnnotationView['geometry']): [number, number] {
  if (geometry.type === 'Point') return [geometry.coordinates[0]!, geometry.coordinates[1]!]
  if (geometry.type === 'LineString') {
    const p = geometry.coordinates[Math.floor(geometry.coordinates.length / 2)]!
    return [p[0]!, p[1]!]
  }
  const ring = geometry.coordinates[0]!
  const lngs = ring.map((p) => p[0]!)
  const lats = ring.map((p) => p[1]!)
  return [(Math.min(...lngs) + Math.max(...lngs)) / 2, (Math.min(...lats) + Math.max(...lats)) / 2]
}

/** An OGR LABEL style: GDAL's DXF writer makes it a text entity of `height` CRS units. */
function label(text: string, height: number) {
  const quoted = text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')
  return `LABEL(f:"Arial",t:"${quoted}",s:${height}g)`
}

/** The features each format writes for a note. */
export function propertiesFor(format: NoteExportFormat, crs: string, labelHeight: number) {
  return (note: AnnotationView): Feature[] => {
    if (format === 'dxf')
      return [
        { properties: { Layer: `NOTES_${note.kind.toUpperCase()}` }, geometry: note.geometry },
        {
          properties: { Layer: 'NOTES_TITLES', OGR_STYLE: label(note.title, labelHeight) },
          geometry: { type: 'Point', coordinates: labelPoint(note.geometry) },
        },
      ]
    const columns = columnsOf(note, crs)
    if (format === 'csv') return [{ properties: escapedText(columns), geometry: note.geometry }]
    if (format === 'kml')
      return [{ properties: { ...columns, OGR_STYLE: styleOf(note) }, geometry: note.geometry }]
    return [{ properties: columns, geometry: note.geometry }]
  }
}

/**
 * GeoJSONSeq lines for the notes, made one at a time as they are read. `extra` texts (DXF's
 * CRS note) are placed once, at the first note's title, one title height below it.
 */
export function* featureLines(
  notes: Iterable<AnnotationView>,
  features: (note: AnnotationView) => Feature[],
  extra: { layer: string; text: string }[] = [],
) {
  let first = true
  for (const note of notes) {
    for (const f of features(note))
      yield JSON.stringify({ type: 'Feature', properties: f.properties, geometry: f.geometry }) + '\n'
    if (first && extra.length) {
      const [lng, lat] = labelPoint(note.geometry)
      for (const e of extra)
        yield JSON.stringify({
          type: 'Feature',
          properties: { Layer: e.layer, OGR_STYLE: label(e.text, 1.5) },
          geometry: { type: 'Point', coordinates: [lng, lat - 0.00005] },
        }) + '\n'
    }
    first = false
  }
}
