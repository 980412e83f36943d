/**
 * Real elevation GeoTIFFs built with GDAL for the measure tests: a flat ground at 100 m with
 * one cone of known volume, written as an ASCII grid and turned into a Float32 GeoTIFF in
 * the CRS asked for (UTM 34S, or a Hartebeesthoek94 Lo system with westing/southing axes).
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export const CONE = { groundM: 100, heightM: 10, radiusM: 20 } as const
/** π r² h / 3 */
export const CONE_VOLUME_M3 = (Math.PI * CONE.radiusM ** 2 * CONE.heightM) / 3
const NODATA = -9999
const PIXEL_M = 0.25
const SIZE_PX = 320
/** The apex sits off the raster's centre, so a mirrored or misplaced raster misses it. */
const APEX_PX = { col: 110, row: 140 }

/** WGS84 [lng, lat] pairs → another CRS (or the reverse), through GDAL itself. */
async function transformPoints(points: [number, number][], from: string, to: string) {
  const child = run('gdaltransform', ['-s_srs', from, '-t_srs', to, '-output_xy'], { encoding: 'utf8' })
  child.child.stdin!.end(points.map(([x, y]) => `${x} ${y}`).join('\n') + '\n')
  const { stdout } = await child
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number])
}

export type ConeDsm = {
  path: string
  /** The apex in WGS84. */
  apex: { lat: number; lng: number }
  /** A 48-sided ring of radius `ringRadiusM` around the apex, WGS84 [lng, lat], closed. */
  ring: [number, number][]
  ringRadiusM: number
  /** Area of that ring in the raster's plane (m²). */
  ringAreaM2: number
  /** A point on the flat ground, 25 m east of the apex (WGS84). */
  ground: { lat: number; lng: number }
}

/**
 * Builds the cone DSM in `dir` near Cape Town (18.42 E, 33.92 S). A 2 m square of nodata lies
 * inside the ring on flat ground (it must change nothing but the skipped count).
 */
export async function buildConeDsm(dir: string, epsg: number, name = `cone-${epsg}.tif`): Promise<ConeDsm> {
  const srs = `EPSG:${epsg}`
  const [[apexX, apexY]] = (await transformPoints([[18.42, -33.92]], 'EPSG:4326', srs)) as [[number, number]]
  // Column grows with the first axis, rows go down the second: for a Lo system (westing,
  // southing) the picture is turned round compared with a map, which GDAL must place right.
  const xll = apexX - (APEX_PX.col + 0.5) * PIXEL_M
  const yTop = apexY + (APEX_PX.row + 0.5) * PIXEL_M
  const yll = yTop - SIZE_PX * PIXEL_M
  const rows: string[] = []
  for (let row = 0; row < SIZE_PX; row++) {
    const values: string[] = []
    for (let col = 0; col < SIZE_PX; col++) {
      const x = xll + (col + 0.5) * PIXEL_M
      const y = yTop - (row + 0.5) * PIXEL_M
      const r = Math.hypot(x - apexX, y - apexY)
      const inHole = x - apexX > 21 && x - apexX < 23 && Math.abs(y - apexY) < 1
      const z = inHole ? NODATA : CONE.groundM + Math.max(0, CONE.heightM * (1 - r / CONE.radiusM))
      values.push(z.toFixed(4))
    }
    rows.push(values.join(' '))
  }
  const asc = path.join(dir, name.replace(/\.tif$/, '.asc'))
  await fs.writeFile(
    asc,
    `ncols ${SIZE_PX}\nnrows ${SIZE_PX}\nxllcorner ${xll}\nyllcorner ${yll}\ncellsize ${PIXEL_M}\nNODATA_value ${NODATA}\n${rows.join('\n')}\n`,
  )
  const out = await tiledGeoTiff(asc, path.join(dir, name), srs, ['-ot', 'Float32'])
  await fs.rm(asc)

  const ringRadiusM = 25
  const sides = 48
  const projected: [number, number][] = []
  for (let i = 0; i < sides; i++) {
    const angle = (2 * Math.PI * i) / sides
    projected.push([apexX + ringRadiusM * Math.cos(angle), apexY + ringRadiusM * Math.sin(angle)])
  }
  const ring = await transformPoints(projected, srs, 'EPSG:4326')
  ring.push(ring[0]!)
  return {
    path: out,
    apex: { lat: -33.92, lng: 18.42 },
    ring,
    ringRadiusM,
    ringAreaM2: 0.5 * sides * ringRadiusM ** 2 * Math.sin((2 * Math.PI) / sides),
    ground: { lat: -33.92, lng: 18.42 + 25 / 92_370 },
  }
}

/**
 * An RGB orthomosaic in `epsg` around the apex point: a magenta field with noise (so JPEG
 * cannot squeeze it to nothing), `sizePx` square at 5 cm, written raw (ENVI) and turned
 * into a GeoTIFF by GDAL.
 */
export async function buildOrthomosaic(dir: string, epsg: number, sizePx = 2048, name = `ortho-${epsg}.tif`) {
  const srs = `EPSG:${epsg}`
  const [[x, y]] = (await transformPoints([[18.42, -33.92]], 'EPSG:4326', srs)) as [[number, number]]
  const pixelM = 0.05
  const half = (sizePx * pixelM) / 2
  const raw = path.join(dir, name.replace(/\.tif$/, '.bsq'))
  const bytes = Buffer.alloc(sizePx * sizePx * 3)
  let seed = 42
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 41) - 20
  const base = [220, 40, 200]
  for (let band = 0; band < 3; band++)
    for (let i = 0; i < sizePx * sizePx; i++)
      bytes[band * sizePx * sizePx + i] = Math.max(0, Math.min(255, base[band]! + noise()))
  await fs.writeFile(raw, bytes)
  await fs.writeFile(
    raw.replace(/\.bsq$/, '.hdr'),
    `ENVI\nsamples = ${sizePx}\nlines = ${sizePx}\nbands = 3\nheader offset = 0\nfile type = ENVI Standard\ndata type = 1\ninterleave = bsq\nbyte order = 0\n`,
  )
  const out = await tiledGeoTiff(raw, path.join(dir, name), srs, [
    '-a_ullr',
    String(x - half),
    String(y + half),
    String(x + half),
    String(y - half),
    '-co',
    'COMPRESS=DEFLATE',
  ])
  await Promise.all([fs.rm(raw), fs.rm(raw.replace(/\.bsq$/, '.hdr'))])
  return out
}

/** GDAL turns `source` into a tiled GeoTIFF `out` in `srs`, with the options in `extra`. */
async function tiledGeoTiff(source: string, out: string, srs: string, extra: string[]) {
  await run('gdal_translate', [
    '-q',
    '-of',
    'GTiff',
    '-a_srs',
    srs,
    '-co',
    'TILED=YES',
    ...extra,
    source,
    out,
  ])
  return out
}

/** The Map view's viewing copy: a Web Mercator COG (ADR 238), JPEG for imagery, DEFLATE for heights. */
export async function buildViewingCog(source: string, out: string, kind: 'orthomosaic' | 'elevation') {
  const compression =
    kind === 'orthomosaic'
      ? ['-dstalpha', '-co', 'COMPRESS=DEFLATE']
      : ['-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=YES']
  await run('gdalwarp', [
    '-q',
    '-overwrite',
    '-t_srs',
    'EPSG:3857',
    '-r',
    'bilinear',
    '-of',
    'COG',
    '-co',
    'OVERVIEWS=AUTO',
    ...compression,
    source,
    out,
  ])
  return out
}

/** A PNG preview (about 800 px) of a raster, in WGS84 so the footprint lines up. */
export async function buildPreview(source: string, out: string) {
  const warped = `${out}.tif`
  await run('gdalwarp', [
    '-q',
    '-overwrite',
    '-t_srs',
    'EPSG:4326',
    '-ts',
    '800',
    '0',
    '-ot',
    'Byte',
    '-scale',
    source,
    warped,
  ]).catch(() =>
    run('gdalwarp', ['-q', '-overwrite', '-t_srs', 'EPSG:4326', '-ts', '800', '0', source, warped]),
  )
  await run('gdal_translate', ['-q', '-of', 'PNG', '-ot', 'Byte', '-scale', warped, out])
  await fs.rm(warped, { force: true })
  return out
}

/** What gdalinfo says of a raster, in the shape of RasterInfo (bounds and footprint in WGS84). */
export async function rasterFacts(file: string) {
  const { stdout } = await run('gdalinfo', ['-json', file], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 })
  const info = JSON.parse(stdout) as {
    size: [number, number]
    geoTransform: number[]
    bands: { type: string; noDataValue?: number }[]
    wgs84Extent: { coordinates: [number, number][][] }
    coordinateSystem: { wkt: string }
  }
  const ring = info.wgs84Extent.coordinates[0]!
  const lngs = ring.map((p) => p[0])
  const lats = ring.map((p) => p[1])
  const epsg = /ID\["EPSG",(\d+)\]\]\s*$/.exec(info.coordinateSystem.wkt)?.[1]
  return {
    epsg: epsg ? Number(epsg) : null,
    widthPx: info.size[0],
    heightPx: info.size[1],
    bandCount: info.bands.length,
    dataType: info.bands[0]!.type,
    nodata: info.bands[0]!.noDataValue ?? null,
    gsdCm: Math.abs(info.geoTransform[1]!) * 100,
    boundsWgs84: [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)] as [
      number,
      number,
      number,
      number,
    ],
    footprintWgs84: ring,
    footprintHa:
      (info.size[0] * info.size[1] * Math.abs(info.geoTransform[1]! * info.geoTransform[5]!)) / 10_000,
    overlapPercent: null,
  }
}
