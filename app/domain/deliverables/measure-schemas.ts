/**
 * What the measure calls accept (shared: the Map view builds the same bodies). A volume
 * polygon is a GeoJSON Polygon in WGS84 ([lng, lat]); only its outer ring is measured.
 */
import { numberInput } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

export const MEASURE_MESSAGES = {
  notElevation: 'Volumes and heights are measured on an elevation model only.',
  notRaster: 'This deliverable has no map layer.',
  latitude: 'Latitude must be a number between -90 and 90.',
  longitude: 'Longitude must be a number between -180 and 180.',
  polygon: 'Draw a polygon of 3 to 1000 corners (GeoJSON Polygon, longitude and latitude).',
  base: "The base is 'edge-mean', 'edge-lowest', 'triangulated' or { elevationM } in metres.",
  outside: 'The polygon does not cover the elevation model.',
  tooLarge: 'The polygon is too large to measure (at most 100 km²).',
  unreadable: 'The elevation model could not be read.',
  stopped: 'The measurement was stopped.',
  changeNotElevation: 'Elevation change is measured between two elevation models only.',
  against: 'Choose the elevation model to compare with (againstFileId).',
  sameFile: 'Choose two different elevation models to compare.',
  noOverlap: "The two elevation models don't overlap in this area.",
} as const

const Latitude = z.number({ message: MEASURE_MESSAGES.latitude }).finite().min(-90).max(90)
const Longitude = z.number({ message: MEASURE_MESSAGES.longitude }).finite().min(-180).max(180)

export const ElevationQuerySchema = z.object({
  lat: numberInput(Latitude.refine(Number.isFinite, MEASURE_MESSAGES.latitude)),
  lng: numberInput(Longitude.refine(Number.isFinite, MEASURE_MESSAGES.longitude)),
})

const Position = z.tuple([Longitude, Latitude], { message: MEASURE_MESSAGES.polygon }).rest(z.number())

/** `triangulated`: a surface through the polygon's edge (piles on sloped ground). */
const VOLUME_BASES = ['edge-mean', 'edge-lowest', 'triangulated'] as const

export const VolumeBaseSchema = z.union(
  [z.enum(VOLUME_BASES), z.object({ elevationM: z.number().finite().min(-500).max(9000) }).strict()],
  { message: MEASURE_MESSAGES.base },
)
export type VolumeBase = z.infer<typeof VolumeBaseSchema>

export const PolygonSchema = z.object(
  {
    type: z.literal('Polygon', { message: MEASURE_MESSAGES.polygon }),
    coordinates: z
      .array(z.array(Position, { message: MEASURE_MESSAGES.polygon }).min(4).max(1001), {
        message: MEASURE_MESSAGES.polygon,
      })
      .min(1, MEASURE_MESSAGES.polygon)
      .max(1, MEASURE_MESSAGES.polygon),
  },
  { message: MEASURE_MESSAGES.polygon },
)

// The measure bodies are strict: a misspelt key is a 400 naming it, never a figure for another area.
export const VolumeRequestSchema = z.object({ polygon: PolygonSchema, base: VolumeBaseSchema }).strict()

/** POST …/change: this elevation model minus `againstFileId` (the earlier survey) over the polygon. */
export const ChangeRequestSchema = z
  .object({
    againstFileId: z
      .number({ message: MEASURE_MESSAGES.against })
      .int(MEASURE_MESSAGES.against)
      .positive(MEASURE_MESSAGES.against)
      .max(2 ** 31, MEASURE_MESSAGES.against),
    polygon: PolygonSchema,
  })
  .strict()

/** The answer of POST …/volume. */
export type VolumeFigures = {
  areaM2: number
  baseElevationM: number
  /** The mean height of the polygon's edge (null when it has no data): where a typed base starts. */
  edgeMeanM: number | null
  cutM3: number
  fillM3: number
  netM3: number
  /** Share of the polygon with elevation data (nodata and outside the model are skipped). */
  coveredPercent: number
}

/** The answer of POST …/change: d = this model − the earlier one, per compared cell. */
export type ChangeFigures = {
  /** The polygon's area (m², ellipsoidal), as the volume measure reports it. */
  areaM2: number
  /** Material removed: Σ max(−d, 0) × cell area, over every compared cell. */
  cutM3: number
  /** Material added: Σ max(d, 0) × cell area. */
  fillM3: number
  /** fillM3 − cutM3: a pile carted away is negative. */
  netM3: number
  /** Share of the polygon where both models have data (only there is d summed). */
  coveredPercent: number
}

/** The polygon's outer ring as [lng, lat] pairs: what the volume and change measures read. */
export function outerRing(polygon: { coordinates: number[][][] }): [number, number][] {
  return polygon.coordinates[0]!.map(([lng, lat]) => [lng!, lat!])
}
