/**
 * Heights and stockpile volumes read from an elevation GeoTIFF with GDAL (ADR 237). GDAL
 * places the raster whatever its CRS (UTM, Lo systems with westing/southing axes), so the
 * app never reads tie points itself: points go to `gdallocationinfo -wgs84`, the polygon
 * (WGS84 GeoJSON) to `gdalwarp -cutline`, which keeps the source grid and the pixels whose
 * centre is inside; the cut-out is summed here with geotiff.js.
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import {
  featureCollection,
  tin,
  area as turfArea,
  distance as turfDistance,
  point as turfPoint,
  polygon as turfPolygon,
} from '@turf/turf'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { ringSelfIntersects } from '#app/domain/geometry/intersects.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { fromFile } from 'geotiff'

import { GdalError, runGdal } from './gdal.server.ts'
import { MEASURE_MESSAGES, type VolumeBase, type VolumeFigures } from './measure-schemas.ts'

/** GDAL's block cache per call (MB): a measure reads a window, never the whole file. */
const GDAL_CACHE_MB = 64
const GDAL_TIMEOUT_MS = 60_000

/** Whose request a measure runs for (its share of the GDAL pool) and its signal (a client gone stops GDAL). */
/** A signed-in request's measure (its account's share of the GDAL pool), or a background job's. */
export type MeasureRun = ({ accountId: number } | { owner: 'conversion' }) & { signal?: AbortSignal }
/** The cut-out is summed in memory: above this many pixels it is read coarser (averaged). */
export const MAX_PIXELS = 4_000_000
const MAX_AREA_M2 = 100_000_000
/** Edge samples for the base plane: one per pixel, at most this many. */
const MAX_EDGE_SAMPLES = 20_000
/** Edge points the triangulated base passes through (its triangles are drawn per pixel). */
const MAX_TIN_POINTS = 400

type RasterFacts = {
  nodata: number | null
  wkt: string
  pixelSize: number
  /** The grid's top-left corner in its CRS. */
  originX: number
  originY: number
  /** The raster's outline in WGS84 (null when GDAL cannot place it). */
  outline: [number, number][] | null
}

const GEOGRAPHIC = /^GEOG(?:CRS|CS)\[/
/** Web Mercator's metres are not ground metres (× 1/cos(latitude), 1,2 at Cape Town). */
const WEB_MERCATOR = /Pseudo-Mercator|Popular Visualisation/i

/**
 * Where a model's cells are summed so that a cell has an area in ground metres: its
 * own CRS when that is projected in ground metres (UTM, Lo), else the local UTM zone (`utm`)
 * — a model in degrees or in Web Mercator. `cellM` is about the model's own ground spacing.
 */
export function groundFrameOf(wkt: string, pixelSize: number, ring: [number, number][]) {
  const size = Math.abs(pixelSize)
  if (GEOGRAPHIC.test(wkt)) return { utm: utmZoneOf(ring), cellM: size * 111_000 }
  if (WEB_MERCATOR.test(wkt)) {
    const lat = ring.reduce((sum, p) => sum + p[1], 0) / ring.length
    return { utm: utmZoneOf(ring), cellM: size * Math.cos((lat * Math.PI) / 180) }
  }
  return { utm: null, cellM: size }
}

/**
 * A GDAL tool's stdout through the pool. A full pool is its 429; a stopped request stays
 * stopped; any other failure is the 422 'could not be read' (the file is the problem).
 */
export async function gdal(run: MeasureRun, command: string, args: string[], input?: string) {
  try {
    return await runGdal(command, args, {
      owner: 'owner' in run ? run.owner : { accountId: run.accountId },
      signal: run.signal,
      timeoutMs: GDAL_TIMEOUT_MS,
      cacheMb: GDAL_CACHE_MB,
      input: input ?? '',
    })
  } catch (error) {
    if (error instanceof DomainError) throw error
    if (error instanceof GdalError && error.aborted) throw new DomainError(400, MEASURE_MESSAGES.stopped)
    throw new DomainError(422, MEASURE_MESSAGES.unreadable)
  }
}

/** A model's grid facts and its outline in WGS84, from `gdalinfo`. */
export async function rasterFacts(run: MeasureRun, file: string): Promise<RasterFacts> {
  const info = JSON.parse(await gdal(run, 'gdalinfo', ['-json', '-nomd', file])) as {
    geoTransform?: number[]
    coordinateSystem?: { wkt?: string }
    bands?: { noDataValue?: number | string }[]
    wgs84Extent?: { coordinates: [number, number][][] }
  }
  const nodata = info.bands?.[0]?.noDataValue
  return {
    nodata: typeof nodata === 'number' ? nodata : nodata === 'nan' ? Number.NaN : null,
    wkt: info.coordinateSystem?.wkt ?? '',
    pixelSize: info.geoTransform?.[1] ?? 1,
    originX: info.geoTransform?.[0] ?? 0,
    originY: info.geoTransform?.[3] ?? 0,
    outline: info.wgs84Extent?.coordinates?.[0] ?? null,
  }
}

/** `gdalwarp` of `source` into a Float32 GeoTIFF `target`, NaN where there is no data (as `readFirstBand` reads it). */
export function warpToFloat32(run: MeasureRun, source: string, target: string, options: string[]) {
  return gdal(run, 'gdalwarp', [
    '-q',
    '-of',
    'GTiff',
    '-ot',
    'Float32',
    '-dstnodata',
    'nan',
    ...options,
    source,
    target,
  ])
}

export function isNodata(value: number, nodata: number | null) {
  return !Number.isFinite(value) || (nodata !== null && value === nodata)
}

/**
 * `top − bottom` summed cell by cell (m × cells): `above` where top is higher, `below` where it
 * is lower, over the cells with data in `top` (`topCells`, where `bottomSum` adds the bottom's
 * heights) and a height in `bottom` (`compared`).
 */
export function sumDifferences(
  top: ArrayLike<number>,
  bottomAt: (i: number) => number,
  nodata: number | null,
) {
  let above = 0
  let below = 0
  let topCells = 0
  let compared = 0
  let bottomSum = 0
  for (let i = 0; i < top.length; i++) {
    const z = top[i]!
    if (isNodata(z, nodata)) continue
    topCells++
    const under = bottomAt(i)
    if (!Number.isFinite(under)) continue
    compared++
    bottomSum += under
    const d = z - under
    if (d > 0) above += d
    else below -= d
  }
  return { above, below, topCells, compared, bottomSum }
}

/** Values at WGS84 points ([lng, lat]); null off the raster or on nodata. */
async function sampleAt(run: MeasureRun, file: string, points: [number, number][], nodata: number | null) {
  const stdout = await gdal(
    run,
    'gdallocationinfo',
    ['-valonly', '-wgs84', file],
    points.map(([lng, lat]) => `${lng} ${lat}`).join('\n') + '\n',
  )
  const lines = stdout.split('\n')
  return points.map((_, i) => {
    const text = lines[i]?.trim() ?? ''
    const value = text === '' ? Number.NaN : Number(text)
    return isNodata(value, nodata) ? null : value
  })
}

/** The elevation (m) at a WGS84 point: null outside the model or on nodata. */
export async function elevationAt(run: MeasureRun, file: string, point: { lat: number; lng: number }) {
  const facts = await rasterFacts(run, file)
  const [value] = await sampleAt(run, file, [[point.lng, point.lat]], facts.nodata)
  return value === null || value === undefined ? null : Math.round(value * 1000) / 1000
}

/** Points along a closed ring about `spacingM` apart (straight in degrees: rings are small). */
function densify(ring: [number, number][], spacingM: number) {
  const length = ring.slice(1).reduce((sum, p, i) => sum + turfDistance(ring[i]!, p, { units: 'meters' }), 0)
  const step = Math.max(spacingM, length / MAX_EDGE_SAMPLES)
  const points: [number, number][] = []
  for (let i = 1; i < ring.length; i++) {
    const [a, b] = [ring[i - 1]!, ring[i]!]
    const n = Math.max(1, Math.ceil(turfDistance(a, b, { units: 'meters' }) / step))
    for (let k = 0; k < n; k++) points.push([a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n])
  }
  return points
}

/**
 * The base's height and the mean height of the polygon's edge (null when the edge has no
 * data; a typed base still measures then). The edge mean is what a typed base starts at. A
 * triangulated base also keeps the edge points it passes through.
 */
async function baseElevation(
  run: MeasureRun,
  file: string,
  ring: [number, number][],
  base: VolumeBase,
  facts: RasterFacts,
  cellM: number,
) {
  const points = densify(ring, cellM)
  const sampled = await sampleAt(run, file, points, facts.nodata)
  const values = sampled.filter((v): v is number => v !== null)
  const edgeMeanM = values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : null
  if (typeof base === 'object') return { baseM: base.elevationM, edgeMeanM, edge: null }
  if (edgeMeanM === null) throw new DomainError(400, MEASURE_MESSAGES.outside)
  if (base !== 'triangulated')
    return { baseM: base === 'edge-lowest' ? Math.min(...values) : edgeMeanM, edgeMeanM, edge: null }
  const known = points.flatMap((p, i) => (sampled[i] == null ? [] : [{ p, z: sampled[i]! }]))
  const every = Math.max(1, Math.ceil(known.length / MAX_TIN_POINTS))
  return { baseM: edgeMeanM, edgeMeanM, edge: known.filter((_, i) => i % every === 0) }
}

/** WGS84 [lng, lat] points in another CRS (a WKT or EPSG code), GIS axis order, through GDAL. */
export async function toPlane(run: MeasureRun, points: [number, number][], srs: string) {
  const stdout = await gdal(
    run,
    'gdaltransform',
    ['-s_srs', 'EPSG:4326', '-t_srs', srs, '-output_xy'],
    points.map(([x, y]) => `${x} ${y}`).join('\n') + '\n',
  )
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number])
}

/** The cut-out's grid: its origin and signed pixel size in its CRS, and its size. */
type Grid = { origin: number[]; resolution: number[]; width: number; height: number }

/**
 * A base height per pixel of the cut-out: the Delaunay triangles through the edge points
 * (in the cut-out's plane), linear inside each; pixels no triangle covers keep `fallback`.
 */
function triangulatedBase(edge: { x: number; y: number; z: number }[], grid: Grid, fallback: number) {
  const heights = new Float64Array(grid.width * grid.height).fill(fallback)
  if (edge.length < 3) return heights
  const triangles = tin(featureCollection(edge.map((e) => turfPoint([e.x, e.y], { z: e.z }))), 'z')
  const [x0, y0] = grid.origin as [number, number]
  const [rx, ry] = grid.resolution as [number, number]
  for (const t of triangles.features) {
    const [a, b, c] = t.geometry.coordinates[0]!.slice(0, 3) as [number, number][]
    const za = t.properties!.a as number
    const zb = t.properties!.b as number
    const zc = t.properties!.c as number
    const det = (b![1] - c![1]) * (a![0] - c![0]) + (c![0] - b![0]) * (a![1] - c![1])
    if (det === 0) continue
    // The triangle's bounding box in pixel columns and rows (rows may grow either way).
    const cols = [a![0], b![0], c![0]].map((x) => (x - x0) / rx - 0.5)
    const rows = [a![1], b![1], c![1]].map((y) => (y - y0) / ry - 0.5)
    const c0 = Math.max(0, Math.floor(Math.min(...cols)))
    const c1 = Math.min(grid.width - 1, Math.ceil(Math.max(...cols)))
    const r0 = Math.max(0, Math.floor(Math.min(...rows)))
    const r1 = Math.min(grid.height - 1, Math.ceil(Math.max(...rows)))
    for (let row = r0; row <= r1; row++) {
      const y = y0 + (row + 0.5) * ry
      for (let col = c0; col <= c1; col++) {
        const x = x0 + (col + 0.5) * rx
        const l1 = ((b![1] - c![1]) * (x - c![0]) + (c![0] - b![0]) * (y - c![1])) / det
        const l2 = ((c![1] - a![1]) * (x - c![0]) + (a![0] - c![0]) * (y - c![1])) / det
        const l3 = 1 - l1 - l2
        if (l1 < -1e-9 || l2 < -1e-9 || l3 < -1e-9) continue
        heights[row * grid.width + col] = l1 * za + l2 * zb + l3 * zc
      }
    }
  }
  return heights
}

function closed(ring: [number, number][]): [number, number][] {
  const [first, last] = [ring[0]!, ring[ring.length - 1]!]
  return first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first]
}

/** The ring closed and checked (not crossing itself, not empty, at most 100 km²) with its ellipsoidal area. */
export function measurableRing(ringInput: [number, number][]) {
  const ring = closed(ringInput)
  if (ring.length < 4 || ringSelfIntersects(ring)) throw new DomainError(400, MEASURE_MESSAGES.polygon)
  const areaM2 = turfArea(turfPolygon([ring]))
  if (!(areaM2 > 0.01)) throw new DomainError(400, MEASURE_MESSAGES.polygon)
  if (areaM2 > MAX_AREA_M2) throw new DomainError(400, MEASURE_MESSAGES.tooLarge)
  return { ring, areaM2 }
}

/** The polygon as a one-feature GeoJSON file, for `gdalwarp -cutline`. */
export function writeCutline(file: string, ring: [number, number][]) {
  return fs.writeFile(
    file,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } }],
    }),
  )
}

/** The first band of a (small, warped) GeoTIFF and its pixel area in the file's plane units². */
export async function readFirstBand(file: string) {
  const image = await (await fromFile(file)).getImage()
  const [resX, resY] = image.getResolution()
  const [band] = (await image.readRasters({ samples: [0] })) as unknown as [ArrayLike<number>]
  return {
    band,
    pixelAreaM2: Math.abs(resX! * resY!),
    width: image.getWidth(),
    height: image.getHeight(),
    origin: image.getOrigin(),
    resolution: image.getResolution(),
  }
}

/**
 * Cut, fill and net volume (m³) between the model and a base over a WGS84 ring: a level plane
 * (edge mean, lowest edge point, typed height) or the triangulated surface through the edge;
 * for each pixel whose centre is inside, (z − base) × pixel area; above the base is cut, below
 * is fill. Nodata pixels are skipped (`coveredPercent` says how much was read).
 */
export async function volumeOver(
  run: MeasureRun,
  file: string,
  ringInput: [number, number][],
  base: VolumeBase,
): Promise<VolumeFigures> {
  const { ring, areaM2 } = measurableRing(ringInput)
  const facts = await rasterFacts(run, file)
  const frame = groundFrameOf(facts.wkt, facts.pixelSize, ring)
  const { baseM, edgeMeanM, edge } = await baseElevation(run, file, ring, base, facts, frame.cellM)

  const tmp = path.join(ensureStorage().tmp, `measure-${crypto.randomUUID()}`)
  const cutline = `${tmp}.geojson`
  const cutOut = `${tmp}.tif`
  try {
    await writeCutline(cutline, ring)
    const args = ['-cutline', cutline, '-crop_to_cutline']
    // A model in degrees or Web Mercator is summed in the local UTM zone, at about its own
    // ground spacing, so a pixel has an area in ground m² (bilinear: the cells move).
    if (frame.utm) args.push('-t_srs', frame.utm)
    const pixels = areaM2 / frame.cellM ** 2
    if (pixels > MAX_PIXELS) {
      const coarser = frame.cellM * Math.sqrt(pixels / MAX_PIXELS)
      args.push('-tr', String(coarser), String(coarser), '-r', 'average')
    } else if (frame.utm) {
      args.push('-tr', String(frame.cellM), String(frame.cellM), '-r', 'bilinear')
    }
    await warpToFloat32(run, file, cutOut, args)
    const { band, pixelAreaM2, ...grid } = await readFirstBand(cutOut)
    let baseAt: ((i: number) => number) | null = null
    if (edge) {
      const plane = await toPlane(
        run,
        edge.map((e) => e.p),
        frame.utm ?? facts.wkt,
      )
      const heights = triangulatedBase(
        edge.map((e, i) => ({ x: plane[i]![0], y: plane[i]![1], z: e.z })),
        grid,
        baseM,
      )
      baseAt = (i) => heights[i]!
    }
    // The ground above the base is cut, below it fill.
    const sums = sumDifferences(band, baseAt ?? (() => baseM), facts.nodata)
    const { above: cut, below: fill, topCells: valid, bottomSum: baseSum } = sums
    if (!valid) throw new DomainError(400, MEASURE_MESSAGES.outside)
    const cutM3 = cut * pixelAreaM2
    const fillM3 = fill * pixelAreaM2
    return {
      areaM2: round(areaM2, 2),
      // A triangulated base reports its mean height over the measured pixels.
      baseElevationM: round(baseAt ? baseSum / valid : baseM, 3),
      edgeMeanM: edgeMeanM === null ? null : round(edgeMeanM, 3),
      cutM3: round(cutM3, 2),
      fillM3: round(fillM3, 2),
      netM3: round(cutM3 - fillM3, 2),
      coveredPercent: round(Math.min(100, ((valid * pixelAreaM2) / areaM2) * 100), 1),
    }
  } finally {
    await Promise.all([fs.rm(cutline, { force: true }), fs.rm(cutOut, { force: true })])
  }
}

/** The WGS84 UTM zone (EPSG code) at the ring's mean vertex. */
function utmZoneOf(ring: [number, number][]) {
  const lng = ring.reduce((sum, p) => sum + p[0], 0) / ring.length
  const lat = ring.reduce((sum, p) => sum + p[1], 0) / ring.length
  const zone = Math.min(60, Math.max(1, Math.floor((lng + 180) / 6) + 1))
  return `EPSG:${lat < 0 ? 32700 + zone : 32600 + zone}`
}

export function round(value: number, places: number) {
  const f = 10 ** places
  return Math.round(value * f) / f
}
