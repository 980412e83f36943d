/**
 * A terrain profile along a drawn line: the line (WGS84) is taken into the elevation model's own
 * pixel grid by `gdaltransform -i`, cut into evenly spaced samples there (so a straight line in
 * the model's CRS, UTM or Lo, is sampled straight) and read by `gdallocationinfo`. Distances are
 * ground metres: pixel steps × the pixel size in a projected model, geodesic in a geographic or
 * Web Mercator one (whose units are not ground metres).
 */
import { distance as turfDistance } from '@turf/turf'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { ensureLocalFile } from '#app/lib/storage/file-cache.server.ts'
import type { User } from '#db/schema.ts'

import { countMeasure, requireElevationModel } from './measure.server.ts'
import { gdal, isNodata, type MeasureRun } from './raster-measure.server.ts'
import { TERRAIN_MESSAGES } from './terrain-schemas.ts'

const MAX_LINE_M = 50_000

type ProfilePoint = { distanceM: number; elevationM: number | null }
export type ProfileFigures = {
  lengthM: number
  points: ProfilePoint[]
  /** The steepest rise or fall between neighbouring samples with data (%), null without two. */
  maxGradePercent: number | null
  minElevationM: number | null
  maxElevationM: number | null
}

type GridFacts = { nodata: number | null; pixelX: number; pixelY: number; groundMetres: boolean }

const GEOGRAPHIC = /^GEOG(?:CRS|CS)\[/
const WEB_MERCATOR = /Pseudo-Mercator|Popular Visualisation/i

export async function gridFacts(run: MeasureRun, file: string): Promise<GridFacts> {
  const info = JSON.parse(await gdal(run, 'gdalinfo', ['-json', '-nomd', file])) as {
    geoTransform?: number[]
    coordinateSystem?: { wkt?: string }
    bands?: { noDataValue?: number | string }[]
  }
  const gt = info.geoTransform ?? [0, 1, 0, 0, 0, -1]
  const wkt = info.coordinateSystem?.wkt ?? ''
  const nodata = info.bands?.[0]?.noDataValue
  return {
    nodata: typeof nodata === 'number' ? nodata : nodata === 'nan' ? Number.NaN : null,
    // A pixel's ground size along each axis (rotation terms included).
    pixelX: Math.hypot(gt[1] ?? 1, gt[4] ?? 0),
    pixelY: Math.hypot(gt[2] ?? 0, gt[5] ?? 1),
    groundMetres: !GEOGRAPHIC.test(wkt) && !WEB_MERCATOR.test(wkt),
  }
}

function numbersPerLine(stdout: string, count: number, width: number) {
  const lines = stdout.split('\n')
  return Array.from({ length: count }, (_, i) => {
    const values = (lines[i] ?? '').trim().split(/\s+/).slice(0, width).map(Number)
    return values.length === width && values.every(Number.isFinite) ? values : null
  })
}

/** Points in `srs` (WGS84 [lng, lat] by default) → fractional pixel/line positions of `file`. */
export async function toPixels(run: MeasureRun, file: string, line: [number, number][], srs = 'EPSG:4326') {
  const stdout = await gdal(
    run,
    'gdaltransform',
    ['-i', '-t_srs', srs, '-output_xy', file],
    line.map(([lng, lat]) => `${lng} ${lat}`).join('\n') + '\n',
  )
  const pixels = numbersPerLine(stdout, line.length, 2)
  if (pixels.some((p) => p === null)) throw new Error('gdaltransform gave no position')
  return pixels as [number, number][]
}

/** Pixel/line positions of `file` → [lng, lat]. */
async function toLngLat(run: MeasureRun, file: string, pixels: [number, number][]) {
  const stdout = await gdal(
    run,
    'gdaltransform',
    ['-t_srs', 'EPSG:4326', '-output_xy', file],
    pixels.map(([x, y]) => `${x} ${y}`).join('\n') + '\n',
  )
  return numbersPerLine(stdout, pixels.length, 2) as Array<[number, number] | null>
}

/** `samples` positions spread evenly by length along the pixel-space polyline (vertices in between kept by length only). */
function spreadAlong(
  vertices: [number, number][],
  samples: number,
  stepLength: (a: number[], b: number[]) => number,
) {
  const legs = vertices.slice(1).map((to, i) => stepLength(vertices[i]!, to))
  const total = legs.reduce((sum, leg) => sum + leg, 0)
  const positions: Array<{ pixel: [number, number]; along: number }> = []
  for (let s = 0; s < samples; s++) {
    const target = (total * s) / (samples - 1)
    let walked = 0
    let leg = 0
    while (leg < legs.length - 1 && walked + legs[leg]! < target) walked += legs[leg++]!
    const from = vertices[leg]!
    const to = vertices[leg + 1]!
    const t = legs[leg]! > 0 ? Math.min(1, (target - walked) / legs[leg]!) : 0
    positions.push({
      pixel: [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t],
      along: target,
    })
  }
  return { positions, total }
}

/** Heights at fractional pixel positions, bilinear between the four nearest cell centres
 * (a slope reads as a slope, not as steps); next to nodata, the cell the sample falls in. */
export async function valuesAt(
  run: MeasureRun,
  file: string,
  pixels: [number, number][],
  nodata: number | null,
) {
  const cells = pixels.flatMap(([x, y]) => {
    const [col, row] = [Math.floor(x - 0.5), Math.floor(y - 0.5)]
    return [
      [col, row],
      [col + 1, row],
      [col, row + 1],
      [col + 1, row + 1],
      [Math.floor(x), Math.floor(y)],
    ]
  })
  const stdout = await gdal(
    run,
    'gdallocationinfo',
    ['-valonly', file],
    cells.map(([c, r]) => `${c} ${r}`).join('\n') + '\n',
  )
  const lines = stdout.split('\n')
  const value = (i: number) => {
    const text = lines[i]?.trim() ?? ''
    const v = text === '' ? Number.NaN : Number(text)
    return isNodata(v, nodata) ? null : v
  }
  return pixels.map(([x, y], i) => {
    const [a, b, c, d, own] = [0, 1, 2, 3, 4].map((k) => value(i * 5 + k))
    if (a === null || b === null || c === null || d === null) return own ?? null
    const fx = x - 0.5 - Math.floor(x - 0.5)
    const fy = y - 0.5 - Math.floor(y - 0.5)
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
  })
}

function gradeFigures(points: ProfilePoint[]) {
  let maxGrade: number | null = null
  let min: number | null = null
  let max: number | null = null
  points.forEach((point, i) => {
    if (point.elevationM === null) return
    min = min === null ? point.elevationM : Math.min(min, point.elevationM)
    max = max === null ? point.elevationM : Math.max(max, point.elevationM)
    const before = points[i - 1]
    if (!before || before.elevationM === null) return
    const run = point.distanceM - before.distanceM
    if (run <= 0) return
    const grade = (Math.abs(point.elevationM - before.elevationM) / run) * 100
    maxGrade = maxGrade === null ? grade : Math.max(maxGrade, grade)
  })
  return { maxGradePercent: maxGrade, minElevationM: min, maxElevationM: max }
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places

/** The profile of `file` along `line` ([lng, lat] vertices) in `samples` evenly spaced samples. */
async function profileAlong(
  run: MeasureRun,
  file: string,
  line: [number, number][],
  samples: number,
): Promise<ProfileFigures> {
  const facts = await gridFacts(run, file)
  const vertices = await toPixels(run, file, line)
  const groundStep = (a: number[], b: number[]) =>
    Math.hypot((b[0]! - a[0]!) * facts.pixelX, (b[1]! - a[1]!) * facts.pixelY)
  const { positions, total } = spreadAlong(vertices, samples, groundStep)
  const pixels = positions.map((p) => p.pixel)
  const values = await valuesAt(run, file, pixels, facts.nodata)
  let distances = positions.map((p) => p.along)
  let lengthM = total
  if (!facts.groundMetres) {
    // Degrees or Web Mercator metres: measure on the ellipsoid between the samples instead.
    const lngLats = await toLngLat(run, file, pixels)
    distances = [0]
    for (let i = 1; i < lngLats.length; i++) {
      const a = lngLats[i - 1]
      const b = lngLats[i]
      const leg = a && b ? turfDistance(a, b, { units: 'meters' }) : 0
      distances.push(distances[i - 1]! + leg)
    }
    lengthM = distances.at(-1) ?? 0
  }
  // Grades from the unrounded figures: a millimetre rounded over a short step would read as a slope.
  const grades = gradeFigures(values.map((elevationM, i) => ({ distanceM: distances[i]!, elevationM })))
  return {
    lengthM: round(lengthM, 3),
    points: values.map((elevationM, i) => ({
      distanceM: round(distances[i]!, 3),
      elevationM: elevationM === null ? null : round(elevationM, 3),
    })),
    maxGradePercent: grades.maxGradePercent === null ? null : round(grades.maxGradePercent, 2),
    minElevationM: grades.minElevationM === null ? null : round(grades.minElevationM, 3),
    maxElevationM: grades.maxElevationM === null ? null : round(grades.maxElevationM, 3),
  }
}

/** The profile of an elevation deliverable this user may download (404 otherwise, 400 for another kind). */
export async function measureProfile(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  fileId: number,
  input: { line: [number, number][]; samples: number },
  { signal }: { signal?: AbortSignal } = {},
  db: DbOrTx = getDb(),
): Promise<ProfileFigures> {
  const stored = requireElevationModel(user, projectId, fileId, db)
  const length = input.line
    .slice(1)
    .reduce((sum, to, i) => sum + turfDistance(input.line[i]!, to, { units: 'meters' }), 0)
  if (length > MAX_LINE_M) throw new DomainError(400, TERRAIN_MESSAGES.tooLong)
  await countMeasure(user.id)
  return profileAlong(
    { accountId: user.id, signal },
    await ensureLocalFile(stored),
    input.line,
    input.samples,
  )
}
