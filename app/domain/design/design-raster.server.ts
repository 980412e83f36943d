/**
 * A design surface as a design raster (Float32 GeoTIFF, NaN where there is no design) that
 * cut/fill warps onto an elevation model's grid with GDAL. A TIN (LandXML, DXF 3D faces) is
 * drawn here cell by cell: each cell centre inside a face takes the face's plane there (linear
 * in the face, so a planar design is exact at every cell and bilinear resampling keeps it exact);
 * a GeoTIFF design model is checked with gdalinfo and copied as its first band.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { GdalError, runGdal } from '#app/domain/deliverables/gdal.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'

/** The design raster's cells at most (Float32: 36 MB), and its finest cell (m). */
const MAX_DESIGN_CELLS = 9_000_000
const MIN_CELL = 0.05
const MAX_GEOTIFF_PIXELS = 100_000_000
const DESIGN_TIMEOUT_MS = 120_000

export const DESIGN_RASTER_MESSAGES = {
  stopped: 'The upload was stopped.',
  geotiff: 'The GeoTIFF could not be read as a design model (a georeferenced GeoTIFF of heights).',
  geotiffRotated: 'The GeoTIFF design model is rotated; give it north up.',
  geotiffTooLarge: `The GeoTIFF design model is larger than ${MAX_GEOTIFF_PIXELS / 1_000_000} million pixels.`,
  dxf: 'The DXF could not be read.',
  dxfNoFaces: 'The DXF has no 3D faces (3DFACE entities with heights).',
  flat: 'The design surface has no area (its faces are degenerate).',
  crs: (crs: string) => `${crs} is not a CRS GDAL knows.`,
  noHeights: 'The design surface has no heights.',
  place: 'The design surface does not fall on the earth in its CRS: check the CRS.',
  needCrs:
    'The design does not say its CRS and the project has no elevation model to take it from: give the crs field (EPSG:code).',
} as const

export type DesignRun = { accountId: number; signal?: AbortSignal }

/** A GDAL tool for a design upload: a failure is the file's fault (400 with `message`). */
async function designGdal(run: DesignRun, tool: string, args: string[], message: string) {
  try {
    return await runGdal(tool, args, {
      owner: { accountId: run.accountId },
      signal: run.signal,
      timeoutMs: DESIGN_TIMEOUT_MS,
    })
  } catch (error) {
    if (error instanceof GdalError) {
      throw new DomainError(400, error.aborted ? DESIGN_RASTER_MESSAGES.stopped : message)
    }
    throw error
  }
}

/** Triangles as x, y, z of three corners each (9 numbers a face), in the design's CRS. */
export type Triangles = Float64Array

/**
 * Draws the triangles on a north-up grid covering them (cells as fine as 5 cm, at most
 * MAX_DESIGN_CELLS) and writes the design raster `out` in `crs`.
 */
export async function rasteriseTriangles(
  run: DesignRun,
  triangles: Triangles,
  crs: string,
  work: string,
  out: string,
) {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity]
  for (let i = 0; i < triangles.length; i += 3) {
    minX = Math.min(minX, triangles[i]!)
    maxX = Math.max(maxX, triangles[i]!)
    minY = Math.min(minY, triangles[i + 1]!)
    maxY = Math.max(maxY, triangles[i + 1]!)
  }
  const spanX = maxX - minX
  const spanY = maxY - minY
  if (!(spanX > 0 && spanY > 0)) throw new DomainError(400, DESIGN_RASTER_MESSAGES.flat)
  const cell = Math.max(MIN_CELL, Math.sqrt((spanX * spanY) / MAX_DESIGN_CELLS))
  const width = Math.max(1, Math.ceil(spanX / cell))
  const height = Math.max(1, Math.ceil(spanY / cell))
  if (width * height > MAX_DESIGN_CELLS * 1.01) throw new DomainError(400, DESIGN_RASTER_MESSAGES.flat)
  const heights = drawTriangles(triangles, { x0: minX, y0: maxY, cell, width, height })
  const raw = path.join(work, 'design.bin')
  await fs.writeFile(raw, Buffer.from(heights.buffer))
  // An ENVI header makes the raw floats a raster GDAL can read.
  await fs.writeFile(
    path.join(work, 'design.hdr'),
    `ENVI\nsamples = ${width}\nlines = ${height}\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = 4\ninterleave = bsq\nbyte order = 0\n`,
  )
  await designGdal(
    run,
    'gdal_translate',
    [
      '-q',
      '-of',
      'GTiff',
      '-a_srs',
      crs,
      '-a_ullr',
      ...[minX, maxY, minX + width * cell, maxY - height * cell].map(String),
      '-a_nodata',
      'nan',
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'TILED=YES',
      raw,
      out,
    ],
    DESIGN_RASTER_MESSAGES.crs(crs),
  )
}

type Grid = { x0: number; y0: number; cell: number; width: number; height: number }

/** Each cell centre inside a triangle gets the triangle's plane there; the others NaN. */
function drawTriangles(triangles: Triangles, grid: Grid) {
  const { x0, y0, cell, width, height } = grid
  const heights = new Float32Array(width * height).fill(Number.NaN)
  for (let t = 0; t + 8 < triangles.length; t += 9) {
    const [ax, ay, az, bx, by, bz, cx, cy, cz] = triangles.subarray(t, t + 9) as unknown as number[]
    const det = (by! - cy!) * (ax! - cx!) + (cx! - bx!) * (ay! - cy!)
    if (det === 0) continue
    const c0 = Math.max(0, Math.floor((Math.min(ax!, bx!, cx!) - x0) / cell - 0.5))
    const c1 = Math.min(width - 1, Math.ceil((Math.max(ax!, bx!, cx!) - x0) / cell - 0.5))
    const r0 = Math.max(0, Math.floor((y0 - Math.max(ay!, by!, cy!)) / cell - 0.5))
    const r1 = Math.min(height - 1, Math.ceil((y0 - Math.min(ay!, by!, cy!)) / cell - 0.5))
    for (let row = r0; row <= r1; row++) {
      const y = y0 - (row + 0.5) * cell
      for (let col = c0; col <= c1; col++) {
        const x = x0 + (col + 0.5) * cell
        const l1 = ((by! - cy!) * (x - cx!) + (cx! - bx!) * (y - cy!)) / det
        const l2 = ((cy! - ay!) * (x - cx!) + (ax! - cx!) * (y - cy!)) / det
        const l3 = 1 - l1 - l2
        if (l1 < -1e-9 || l2 < -1e-9 || l3 < -1e-9) continue
        heights[row * width + col] = l1 * az! + l2 * bz! + l3 * cz!
      }
    }
  }
  return heights
}

/** The triangles of a DXF's 3D faces (GDAL's DXF driver reads a 3DFACE as a polygon with Z). */
export async function dxfTriangles(run: DesignRun, file: string): Promise<Triangles> {
  const geojson = await designGdal(
    run,
    'ogr2ogr',
    ['-f', 'GeoJSON', '-dim', 'XYZ', '/vsistdout/', file],
    DESIGN_RASTER_MESSAGES.dxf,
  )
  let collection: { features?: { geometry?: { type?: string; coordinates?: unknown } | null }[] }
  try {
    collection = JSON.parse(geojson) as typeof collection
  } catch {
    throw new DomainError(400, DESIGN_RASTER_MESSAGES.dxf)
  }
  const out: number[] = []
  for (const feature of collection.features ?? []) {
    const geometry = feature.geometry
    const rings =
      geometry?.type === 'Polygon'
        ? [(geometry.coordinates as number[][][])[0]]
        : geometry?.type === 'MultiPolygon'
          ? (geometry.coordinates as number[][][][]).map((p) => p[0])
          : []
    for (const ring of rings) {
      // A face's ring is closed; a quad is two triangles (a fan from its first corner).
      const corners = (ring ?? []).slice(0, -1)
      if (corners.length < 3 || corners.some((c) => c.length < 3 || !c.every(Number.isFinite))) continue
      for (let k = 1; k + 1 < corners.length; k++)
        out.push(...corners[0]!.slice(0, 3), ...corners[k]!.slice(0, 3), ...corners[k + 1]!.slice(0, 3))
    }
  }
  if (!out.length) throw new DomainError(400, DESIGN_RASTER_MESSAGES.dxfNoFaces)
  return Float64Array.from(out)
}

type GdalInfo = {
  driverShortName?: string
  size?: [number, number]
  geoTransform?: number[]
  coordinateSystem?: { wkt?: string }
  bands?: { computedMin?: number; computedMax?: number }[]
  wgs84Extent?: { type: 'Polygon'; coordinates: [number, number][][] }
  stac?: { 'proj:epsg'?: number | null }
}

/** A GeoTIFF design model checked (georeferenced, north up, bounded) and copied as its first band. */
export async function geotiffDesign(run: DesignRun, file: string, fallbackCrs: string | null, out: string) {
  const info = JSON.parse(
    await designGdal(run, 'gdalinfo', ['-json', '-nomd', file], DESIGN_RASTER_MESSAGES.geotiff),
  ) as GdalInfo
  const gt = info.geoTransform
  if (info.driverShortName !== 'GTiff' || !gt || !info.size || !info.bands?.length)
    throw new DomainError(400, DESIGN_RASTER_MESSAGES.geotiff)
  if (gt[2] !== 0 || gt[4] !== 0) throw new DomainError(400, DESIGN_RASTER_MESSAGES.geotiffRotated)
  if (info.size[0] * info.size[1] > MAX_GEOTIFF_PIXELS)
    throw new DomainError(400, DESIGN_RASTER_MESSAGES.geotiffTooLarge)
  const given = info.coordinateSystem?.wkt ? null : fallbackCrs
  if (!info.coordinateSystem?.wkt && !fallbackCrs) throw new DomainError(400, DESIGN_RASTER_MESSAGES.needCrs)
  await designGdal(
    run,
    'gdal_translate',
    [
      '-q',
      '-b',
      '1',
      '-ot',
      'Float32',
      ...(given ? ['-a_srs', given] : []),
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'TILED=YES',
      file,
      out,
    ],
    DESIGN_RASTER_MESSAGES.geotiff,
  )
}

/** The design raster's outline and extent in WGS84 and its lowest and highest height. */
export async function designFacts(run: DesignRun, raster: string) {
  const info = JSON.parse(
    await designGdal(run, 'gdalinfo', ['-json', '-nomd', '-mm', raster], DESIGN_RASTER_MESSAGES.geotiff),
  ) as GdalInfo
  const band = info.bands?.[0]
  if (typeof band?.computedMin !== 'number' || typeof band.computedMax !== 'number')
    throw new DomainError(400, DESIGN_RASTER_MESSAGES.noHeights)
  const ring = info.wgs84Extent?.coordinates?.[0]
  if (!ring?.length || !ring.every(([lng, lat]) => Math.abs(lng) <= 180 && Math.abs(lat) <= 90))
    throw new DomainError(400, DESIGN_RASTER_MESSAGES.place)
  const epsg =
    info.stac?.['proj:epsg'] ?? /ID\["EPSG",(\d{4,6})\]\]\s*$/.exec(info.coordinateSystem?.wkt ?? '')?.[1]
  const lngs = ring.map((p) => p[0])
  const lats = ring.map((p) => p[1])
  return {
    crs: epsg ? `EPSG:${epsg}` : 'custom',
    outline: { type: 'Polygon' as const, coordinates: [ring] },
    extent: [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)] as [
      number,
      number,
      number,
      number,
    ],
    minElevationM: band.computedMin,
    maxElevationM: band.computedMax,
  }
}
