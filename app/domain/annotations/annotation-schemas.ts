/**
 * Notes on the Map view (shared: the map's drawing panel builds the same bodies): a point, a
 * line or a polygon in WGS84 GeoJSON ([lng, lat]) with a title, a note and a colour; a polygon
 * may be a stockpile or a pit and names the base its volume is measured from.
 */
import { ringSelfIntersects } from '#app/domain/geometry/intersects.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import {
  ANNOTATION_BASES,
  ANNOTATION_KINDS,
  STOCKPILE_KINDS,
  type AnnotationBase,
  type AnnotationKind,
  type StockpileKind,
} from '#db/enums.ts'
import type { AnnotationMeasurement } from '#db/schema.ts'
import { z } from 'zod'

/** Points of a line, corners of a polygon. */
const MAX_NOTE_VERTICES = 1000
export const MAX_ANNOTATIONS_PER_PROJECT = 500
/** All of a project's notes together: a listing, a share page and an export stay a few MB. */
export const MAX_PROJECT_VERTICES = 100_000
/** Notes in one page of the list (GET …/annotations). */
const MAX_NOTES_PAGE = 200
/** The text fields' and density's ceilings: the schema, its messages and both note forms read them here. */
export const NOTE_LIMITS = { titleChars: 200, noteChars: 2000, materialChars: 60, densityTPerM3: 25 } as const

export const ANNOTATION_MESSAGES = {
  notFound: 'Note not found',
  notYours: 'You can only change your own notes.',
  title: `Give the note a title (at most ${NOTE_LIMITS.titleChars} characters).`,
  note: `The note is at most ${NOTE_LIMITS.noteChars} characters.`,
  color: 'Choose a colour (#rrggbb).',
  kind: "The kind is 'point', 'line' or 'polygon'.",
  geometry:
    'The shape must be a GeoJSON Point, LineString or Polygon (longitude, latitude) matching the kind.',
  point: 'A point is one longitude, latitude pair.',
  line: `A line has 2 to ${MAX_NOTE_VERTICES} points.`,
  polygon: `A polygon has 3 to ${MAX_NOTE_VERTICES} corners and does not cross itself.`,
  stockpileNeedsPolygon: 'Only a polygon can be a stockpile or a pit.',
  baseNeedsPolygon: 'Only a polygon has a volume base.',
  baseHeight: 'Type the base height in metres.',
  material: `The material is at most ${NOTE_LIMITS.materialChars} characters.`,
  density: `Type the density in tonnes per cubic metre (more than 0, at most ${NOTE_LIMITS.densityTPerM3}).`,
  materialNeedsStockpile: 'Only a stockpile or a pit has a material and a density.',
  tooMany: `This project has the most notes it can hold (${MAX_ANNOTATIONS_PER_PROJECT}). Delete one you no longer need to add another.`,
  tooManyVertices: (total: number) =>
    `A project's notes hold at most ${formatNumber(MAX_PROJECT_VERTICES)} corners in all; with this one they would have ${formatNumber(total)}. Simplify its shape, or delete a note you no longer need.`,
  bbox: 'The bbox is west,south,east,north in degrees (west < east, south < north).',
  after: 'after is the id of the last note of the previous page.',
  limit: `limit is 1 to ${MAX_NOTES_PAGE}.`,
  created: 'Note saved',
  updated: 'Note updated',
  deleted: 'Note deleted',
} as const

/** The formats the notes export writes, in the order the export form offers them, with its names. */
export const NOTE_EXPORT_FORMATS = ['csv', 'geojson', 'kml', 'shp', 'dxf', 'gpkg'] as const
export type NoteExportFormat = (typeof NOTE_EXPORT_FORMATS)[number]
export const NOTE_EXPORT_FORMAT_LABELS: Record<NoteExportFormat, string> = {
  csv: 'CSV',
  geojson: 'GeoJSON',
  kml: 'KML',
  shp: 'Shapefile (zip)',
  dxf: 'DXF',
  gpkg: 'GeoPackage',
}
export const DEFAULT_NOTE_COLOR = '#e11d48'
/** The colours the drawing panel offers (any #rrggbb is accepted). */
export const NOTE_COLORS = ['#e11d48', '#f59e0b', '#16a34a', '#2563eb', '#7c3aed', '#111827'] as const

export const BASE_LABELS: Record<AnnotationBase, string> = {
  'edge-mean': 'Edge mean',
  'edge-lowest': 'Lowest edge point',
  triangulated: 'Triangulated (through the edge)',
  typed: 'Typed height',
}

export const STOCKPILE_LABELS: Record<StockpileKind, string> = { stockpile: 'Stockpile', pit: 'Pit' }

const Lng = z.number().finite().min(-180).max(180)
const Lat = z.number().finite().min(-90).max(90)
const Position = z.tuple([Lng, Lat]).rest(z.number().finite())

const PointSchema = z.object({ type: z.literal('Point'), coordinates: Position })
const LineSchema = z.object({
  type: z.literal('LineString'),
  coordinates: z
    .array(Position)
    .min(2, ANNOTATION_MESSAGES.line)
    .max(MAX_NOTE_VERTICES, ANNOTATION_MESSAGES.line),
})
const PolygonSchema = z.object({
  type: z.literal('Polygon'),
  coordinates: z
    .array(
      z
        .array(Position)
        .min(4, ANNOTATION_MESSAGES.polygon)
        .max(MAX_NOTE_VERTICES + 1, ANNOTATION_MESSAGES.polygon),
    )
    .length(1, ANNOTATION_MESSAGES.polygon),
})

const AnnotationGeometrySchema = z.discriminatedUnion('type', [PointSchema, LineSchema, PolygonSchema], {
  errorMap: () => ({ message: ANNOTATION_MESSAGES.geometry }),
})
export type AnnotationGeometry = z.infer<typeof AnnotationGeometrySchema>

const GEOMETRY_OF_KIND: Record<AnnotationKind, AnnotationGeometry['type']> = {
  point: 'Point',
  line: 'LineString',
  polygon: 'Polygon',
}

/** A ring closed (first = last), [lng, lat] only. */
function closedRing(ring: number[][]): [number, number][] {
  const r = ring.map((p) => [p[0]!, p[1]!] as [number, number])
  const [first, last] = [r[0]!, r[r.length - 1]!]
  return first[0] === last[0] && first[1] === last[1] ? r : [...r, first]
}

/** The geometry with 2D positions only (a closed ring for a polygon). */
export function normalGeometry(geometry: AnnotationGeometry): AnnotationGeometry {
  const xy = (p: number[]) => [p[0]!, p[1]!] as [number, number]
  if (geometry.type === 'Point') return { type: 'Point', coordinates: xy(geometry.coordinates) }
  if (geometry.type === 'LineString') return { type: 'LineString', coordinates: geometry.coordinates.map(xy) }
  return { type: 'Polygon', coordinates: [closedRing(geometry.coordinates[0]!)] }
}

/** A geometry's bounds (WGS84) and its positions (a polygon's closing corner counts). */
export function geometryBounds(geometry: AnnotationGeometry) {
  const points =
    geometry.type === 'Point'
      ? [geometry.coordinates]
      : geometry.type === 'LineString'
        ? geometry.coordinates
        : geometry.coordinates[0]!
  const lngs = points.map((p) => p[0]!)
  const lats = points.map((p) => p[1]!)
  return {
    minLng: Math.min(...lngs),
    minLat: Math.min(...lats),
    maxLng: Math.max(...lngs),
    maxLat: Math.max(...lats),
    vertexCount: points.length,
  }
}

const Fields = z.object({
  kind: z.enum(ANNOTATION_KINDS, { message: ANNOTATION_MESSAGES.kind }),
  geometry: AnnotationGeometrySchema,
  title: z
    .string({ message: ANNOTATION_MESSAGES.title })
    .trim()
    .min(1, ANNOTATION_MESSAGES.title)
    .max(NOTE_LIMITS.titleChars, ANNOTATION_MESSAGES.title),
  note: z
    .string({ message: ANNOTATION_MESSAGES.note })
    .max(NOTE_LIMITS.noteChars, ANNOTATION_MESSAGES.note)
    .default(''),
  color: z
    .string({ message: ANNOTATION_MESSAGES.color })
    .regex(/^#[0-9a-fA-F]{6}$/, ANNOTATION_MESSAGES.color)
    .transform((c) => c.toLowerCase())
    .default(DEFAULT_NOTE_COLOR),
  stockpileKind: z.enum(STOCKPILE_KINDS).nullable().default(null),
  base: z.enum(ANNOTATION_BASES).nullable().default(null),
  baseElevationM: z
    .number({ message: ANNOTATION_MESSAGES.baseHeight })
    .finite()
    .min(-500)
    .max(9000)
    .nullable()
    .default(null),
  material: z
    .string({ message: ANNOTATION_MESSAGES.material })
    .trim()
    .max(NOTE_LIMITS.materialChars, ANNOTATION_MESSAGES.material)
    .transform((m) => m || null)
    .nullable()
    .default(null),
  densityTPerM3: z
    .number({ message: ANNOTATION_MESSAGES.density })
    .finite()
    .positive(ANNOTATION_MESSAGES.density)
    .max(NOTE_LIMITS.densityTPerM3, ANNOTATION_MESSAGES.density)
    .nullable()
    .default(null),
})

/** POST and PUT …/annotations: the same fields (PUT replaces the note). */
export const AnnotationInputSchema = Fields.strict().superRefine((value, ctx) => {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
  if (GEOMETRY_OF_KIND[value.kind] !== value.geometry.type) issue('geometry', ANNOTATION_MESSAGES.geometry)
  if (value.geometry.type === 'Polygon') {
    const ring = closedRing(value.geometry.coordinates[0]!)
    if (ring.length < 4 || ring.length > MAX_NOTE_VERTICES + 1 || ringSelfIntersects(ring))
      issue('geometry', ANNOTATION_MESSAGES.polygon)
  }
  if (value.kind !== 'polygon' && value.stockpileKind)
    issue('stockpileKind', ANNOTATION_MESSAGES.stockpileNeedsPolygon)
  if (value.kind !== 'polygon' && value.base) issue('base', ANNOTATION_MESSAGES.baseNeedsPolygon)
  if (value.base === 'typed' && value.baseElevationM === null)
    issue('baseElevationM', ANNOTATION_MESSAGES.baseHeight)
  if (!value.stockpileKind && value.material) issue('material', ANNOTATION_MESSAGES.materialNeedsStockpile)
  if (!value.stockpileKind && value.densityTPerM3 !== null)
    issue('densityTPerM3', ANNOTATION_MESSAGES.materialNeedsStockpile)
})
export type AnnotationInput = z.infer<typeof AnnotationInputSchema>

/** What a note measured, as stored (one type with the table's column). */
type AnnotationMeasurementView = AnnotationMeasurement

/** The API's note (GET/POST/PUT …/annotations). */
export type AnnotationView = {
  id: number
  projectId: number
  kind: AnnotationKind
  geometry: AnnotationGeometry
  title: string
  note: string
  color: string
  stockpileKind: StockpileKind | null
  base: AnnotationBase | null
  baseElevationM: number | null
  material: string | null
  densityTPerM3: number | null
  authorId: number | null
  authorName: string
  createdAt: string
  updatedAt: string
  measurement: AnnotationMeasurementView
}

const Degrees = z.coerce.number().finite()
/** GET …/annotations: a page of notes (`after` the last id of the one before), in a box when asked. */
export const NotesPageQuerySchema = z.object({
  bbox: z
    .string()
    .max(120, ANNOTATION_MESSAGES.bbox)
    .transform((text, ctx) => {
      const parts = text.split(',').map((p) => Degrees.safeParse(p.trim()))
      const [w, s, e, n] = parts.map((p) => (p.success ? p.data : NaN))
      const ok =
        parts.length === 4 &&
        [w, e].every((v) => v! >= -180 && v! <= 180) &&
        [s, n].every((v) => v! >= -90 && v! <= 90) &&
        w! < e! &&
        s! < n!
      if (!ok) {
        ctx.addIssue({ code: 'custom', message: ANNOTATION_MESSAGES.bbox })
        return z.NEVER
      }
      return { west: w!, south: s!, east: e!, north: n! }
    })
    .optional(),
  after: z.coerce
    .number({ message: ANNOTATION_MESSAGES.after })
    .int(ANNOTATION_MESSAGES.after)
    .min(0, ANNOTATION_MESSAGES.after)
    .max(2 ** 31, ANNOTATION_MESSAGES.after)
    .default(0),
  limit: z.coerce
    .number({ message: ANNOTATION_MESSAGES.limit })
    .int(ANNOTATION_MESSAGES.limit)
    .min(1, ANNOTATION_MESSAGES.limit)
    .max(MAX_NOTES_PAGE, ANNOTATION_MESSAGES.limit)
    .default(100),
})
export type NotesPageQuery = z.infer<typeof NotesPageQuerySchema>
