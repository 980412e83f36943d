/**
 * What the engineer's terrain calls accept: a profile along a drawn line and contour lines.
 * Lines are GeoJSON LineStrings in WGS84 ([lng, lat]).
 */
import { numberInput } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

export const TERRAIN_MESSAGES = {
  line: 'Draw a line of 2 to 500 points (GeoJSON LineString, longitude and latitude).',
  samples: 'Samples is a whole number from 2 to 2000.',
  tooLong: 'The line is too long to profile (at most 50 km).',
  interval: 'The contour interval is a number of metres from 0.01 to 1000.',
  format: 'The format is geojson, dxf, shp, gpkg or kml.',
  crs: "The crs is 'wgs84' or 'project'.",
} as const

const Position = z
  .tuple([z.number().finite().min(-180).max(180), z.number().finite().min(-90).max(90)], {
    message: TERRAIN_MESSAGES.line,
  })
  .rest(z.number())

const LineStringSchema = z.object(
  {
    type: z.literal('LineString', { message: TERRAIN_MESSAGES.line }),
    coordinates: z
      .array(Position, { message: TERRAIN_MESSAGES.line })
      .min(2, TERRAIN_MESSAGES.line)
      .max(500, TERRAIN_MESSAGES.line),
  },
  { message: TERRAIN_MESSAGES.line },
)

export const ProfileRequestSchema = z
  .object({
    line: LineStringSchema,
    samples: z
      .number({ message: TERRAIN_MESSAGES.samples })
      .int(TERRAIN_MESSAGES.samples)
      .min(2, TERRAIN_MESSAGES.samples)
      .max(2000, TERRAIN_MESSAGES.samples)
      .default(200),
  })
  .strict()

const CONTOUR_FORMATS = ['geojson', 'dxf', 'shp', 'gpkg', 'kml'] as const
export type ContourFormat = (typeof CONTOUR_FORMATS)[number]

export const ContourQuerySchema = z.object({
  interval: numberInput(
    z
      .number({ message: TERRAIN_MESSAGES.interval })
      .finite()
      .min(0.01, TERRAIN_MESSAGES.interval)
      .max(1000, TERRAIN_MESSAGES.interval),
  ),
  format: z.enum(CONTOUR_FORMATS, { message: TERRAIN_MESSAGES.format }).default('geojson'),
  crs: z.enum(['wgs84', 'project'], { message: TERRAIN_MESSAGES.crs }).default('wgs84'),
})
export type ContourQuery = z.infer<typeof ContourQuerySchema>
