/**
 * The notes as GeoJSONSeq lines for ogr2ogr, one note at a time, with each format's columns:
 * the attribute columns (at most 10 letters each: the shapefile's limit), CSV text escaped
 * against formulas, KML's colour as an OGR style, and DXF's layers with a title (a LABEL point
 * GDAL writes as text) beside each shape.
 */
import { escapeFormula } from '#app/lib/format/csv.server.ts'

import type { RawNote } from './annotation-pages.server.ts'
import type { NoteExportFormat } from './annotation-schemas.ts'

/** A feature's properties and its geometry as JSON text. */
type Feature = { properties: Record<string, unknown>; geometryJson: string }

/** A note's columns. */
function columnsOf(note: RawNote, crs: string) {
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
function styleOf(note: RawNote) {
  if (note.kind === 'point') return `SYMBOL(id:"${KML_POINT_ICON}",c:${note.color})`
  const pen = `PEN(c:${note.color},w:3px)`
  return note.kind === 'polygon' ? `${pen};BRUSH(fc:${note.color}33)` : pen
}

/** Where a title is written: the middle of the shape's bounds (a point's own place). */
function labelPoint({ bounds }: RawNote): [number, number] {
  return [(bounds.minLng + bounds.maxLng) / 2, (bounds.minLat + bounds.maxLat) / 2]
}

const pointJson = (p: [number, number]) => JSON.stringify({ type: 'Point', coordinates: p })

/** An OGR LABEL style: GDAL's DXF writer makes it a text entity of `height` CRS units. */
function label(text: string, height: number) {
  const quoted = text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')
  return `LABEL(f:"Arial",t:"${quoted}",s:${height}g)`
}

/** The features each format writes for a note. */
export function propertiesFor(format: NoteExportFormat, crs: string, labelHeight: number) {
  return (note: RawNote): Feature[] => {
    const geometryJson = note.geometryJson
    if (format === 'dxf')
      return [
        { properties: { Layer: `NOTES_${note.kind.toUpperCase()}` }, geometryJson },
        {
          properties: { Layer: 'NOTES_TITLES', OGR_STYLE: label(note.title, labelHeight) },
          geometryJson: pointJson(labelPoint(note)),
        },
      ]
    const columns = columnsOf(note, crs)
    if (format === 'csv') return [{ properties: escapedText(columns), geometryJson }]
    if (format === 'kml') return [{ properties: { ...columns, OGR_STYLE: styleOf(note) }, geometryJson }]
    return [{ properties: columns, geometryJson }]
  }
}

/** One GeoJSONSeq line; the geometry is put in as the text it was stored as. */
const featureLine = (f: Feature) =>
  `{"type":"Feature","properties":${JSON.stringify(f.properties)},"geometry":${f.geometryJson}}\n`

/**
 * GeoJSONSeq lines for the notes, made one at a time as they are read. `extra` texts (DXF's
 * CRS note) are placed once, at the first note's title, one title height below it.
 */
export function* featureLines(
  notes: Iterable<RawNote>,
  features: (note: RawNote) => Feature[],
  extra: { layer: string; text: string }[] = [],
) {
  let first = true
  for (const note of notes) {
    for (const f of features(note)) yield featureLine(f)
    if (first && extra.length) {
      const [lng, lat] = labelPoint(note)
      for (const e of extra)
        yield featureLine({
          properties: { Layer: e.layer, OGR_STYLE: label(e.text, 1.5) },
          geometryJson: pointJson([lng, lat - 0.00005]),
        })
    }
    first = false
  }
}
