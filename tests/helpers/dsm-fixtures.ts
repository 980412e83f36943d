/**
 * Real elevation GeoTIFFs built with GDAL for the measure tests: a flat ground at 100 m with
 * one cone of known volume, written as an ASCII grid and turned into a Float32 GeoTIFF in
 * the CRS asked for (UTM 34S, or a Hartebeesthoek94 Lo system with westing/southing axes).
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { CRS_ITEM } from '#app/domain/deliverables/view-copies.server.ts'

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
export async function transformPoints(points: [number, number][], from: string, to: string) {
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
  const out = await writeGridDsm(path.join(dir, name), srs, {
    xll,
    yTop,
    sizePx: SIZE_PX,
    pixelM: PIXEL_M,
    heightAt: (x, y) => {
      const r = Math.hypot(x - apexX, y - apexY)
      const inHole = x - apexX > 21 && x - apexX < 23 && Math.abs(y - apexY) < 1
      return inHole ? NODATA : CONE.groundM + Math.max(0, CONE.heightM * (1 - r / CONE.radiusM))
    },
  })

  const ringRadiusM = 25
  const sides = 48
  const ring = await circleRing(apexX, apexY, ringRadiusM, srs)
  return {
    path: out,
    apex: { lat: -33.92, lng: 18.42 },
    ring,
    ringRadiusM,
    ringAreaM2: 0.5 * sides * ringRadiusM ** 2 * Math.sin((2 * Math.PI) / sides),
    ground: { lat: -33.92, lng: 18.42 + 25 / 92_370 },
  }
}

type GridSpec = {
  /** Lower-left x and top y of the grid in its CRS. */
  xll: number
  yTop: number
  sizePx: number
  pixelM: number
  /** The height at a cell centre (x, y in the CRS); NODATA for a hole. */
  heightAt: (x: number, y: number) => number
}

/** A square Float32 GeoTIFF of heights, written as an ASCII grid and translated by GDAL. */
async function writeGridDsm(out: string, srs: string, grid: GridSpec) {
  const rows: string[] = []
  for (let row = 0; row < grid.sizePx; row++) {
    const values: string[] = []
    for (let col = 0; col < grid.sizePx; col++)
      values.push(
        grid.heightAt(grid.xll + (col + 0.5) * grid.pixelM, grid.yTop - (row + 0.5) * grid.pixelM).toFixed(4),
      )
    rows.push(values.join(' '))
  }
  const asc = out.replace(/\.tif$/, '.asc')
  const yll = grid.yTop - grid.sizePx * grid.pixelM
  await fs.writeFile(
    asc,
    `ncols ${grid.sizePx}\nnrows ${grid.sizePx}\nxllcorner ${grid.xll}\nyllcorner ${yll}\ncellsize ${grid.pixelM}\nNODATA_value ${NODATA}\n${rows.join('\n')}\n`,
  )
  await tiledGeoTiff(asc, out, srs, ['-ot', 'Float32'])
  await fs.rm(asc)
  return out
}

/** Where the change fixtures stand (a quarry near Cape Town) and their flat ground. */
export const CHANGE_SITE = { lng: 18.43, lat: -33.93, groundM: 100 } as const

/** What stands on the flat ground at the site, in metres of the DSM's own plane. */
export type Relief =
  | { kind: 'flat' }
  /** A stockpile: π r² h / 3. */
  | { kind: 'cone'; radiusM: number; heightM: number }
  /** A round pit (negative height) or a round tank: π r² h. */
  | { kind: 'cylinder'; radiusM: number; heightM: number }

/** The stockpile the change tests measure: 15 m in radius, 6 m high. */
export const PILE: Relief = { kind: 'cone', radiusM: 15, heightM: 6 }

/** The made-up account measures in tests run for (the GDAL pool counts them like a request's). */
export const TEST_RUN = { accountId: 1 }

/** The analytic volume (m³) of a relief; negative below the ground. */
export function reliefVolumeM3(relief: Relief) {
  if (relief.kind === 'flat') return 0
  const base = Math.PI * relief.radiusM ** 2 * relief.heightM
  return relief.kind === 'cone' ? base / 3 : base
}

/** The height a relief adds at (dx, dy) metres from its centre in the DSM's plane. */
function oneReliefAt(relief: Relief, dx: number, dy: number) {
  if (relief.kind === 'flat') return 0
  const r = Math.hypot(dx, dy)
  if (r >= relief.radiusM) return 0
  return relief.kind === 'cone' ? relief.heightM * (1 - r / relief.radiusM) : relief.heightM
}

/** Repeatable pseudo-random heights in ±`amplitude` (a survey's noise), one stream per seed. */
function noiseStream(seed: number, amplitude: number) {
  let state = seed >>> 0 || 1
  return () => {
    // xorshift32: the same numbers on every run, so a failure can be replayed.
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return ((state >>> 0) / 0xffffffff) * 2 * amplitude - amplitude
  }
}

/**
 * A DSM of flat ground with one relief centred on `centre` (default CHANGE_SITE), `sizeM`
 * (80 m) square at `pixelM`, in `epsg`. The relief sits off the raster's centre (at 40 %
 * across, 35 % down), so a misplaced or mirrored raster moves it. A 2 m square of nodata lies
 * 20 m east of the centre, inside a 25 m ring. `noise` adds ±`amplitudeM` to every cell.
 */
export async function buildReliefDsm(
  dir: string,
  spec: {
    epsg: number
    pixelM: number
    relief: Relief
    centre?: { lng: number; lat: number }
    name?: string
    sizeM?: number
    noise?: { amplitudeM: number; seed: number }
    /** Sloped ground: metres of rise per metre along the plane's first and second axes. */
    slope?: { x: number; y: number }
    /** More reliefs on the same ground, each centred on its own WGS84 point. */
    more?: Array<{ relief: Relief; at: { lng: number; lat: number } }>
  },
) {
  const srs = `EPSG:${spec.epsg}`
  const centre = spec.centre ?? CHANGE_SITE
  const [[cx, cy]] = (await transformPoints([[centre.lng, centre.lat]], 'EPSG:4326', srs)) as [
    [number, number],
  ]
  const sizePx = Math.round((spec.sizeM ?? 80) / spec.pixelM)
  const { relief } = spec
  const noise = spec.noise ? noiseStream(spec.noise.seed, spec.noise.amplitudeM) : () => 0
  const more = spec.more ?? []
  const centres = more.length
    ? await transformPoints(
        more.map((m) => [m.at.lng, m.at.lat]),
        'EPSG:4326',
        srs,
      )
    : []
  const placed = [
    { relief, x: cx, y: cy },
    ...more.map((m, i) => ({ relief: m.relief, x: centres[i]![0], y: centres[i]![1] })),
  ]
  const reliefAt = (x: number, y: number) =>
    placed.reduce((sum, p) => sum + oneReliefAt(p.relief, x - p.x, y - p.y), 0)
  const heightAt = (x: number, y: number) => {
    const jitter = noise()
    if (x - cx > 19 && x - cx < 21 && Math.abs(y - cy) < 1) return NODATA
    const tilt = spec.slope ? spec.slope.x * (x - cx) + spec.slope.y * (y - cy) : 0
    return CHANGE_SITE.groundM + tilt + reliefAt(x, y) + jitter
  }
  const name =
    spec.name ?? `${relief.kind}-${spec.epsg}-${spec.pixelM}${spec.noise ? `-n${spec.noise.seed}` : ''}.tif`
  return writeGridDsm(path.join(dir, name), srs, {
    xll: cx - 0.4 * sizePx * spec.pixelM,
    yTop: cy + 0.35 * sizePx * spec.pixelM,
    sizePx,
    pixelM: spec.pixelM,
    heightAt,
  })
}

/** The same DSM reprojected by GDAL to `epsg` (bilinear), e.g. into degrees or Web Mercator. */
export async function reprojectDsm(source: string, epsg: number, out: string) {
  await run('gdalwarp', ['-q', '-overwrite', '-t_srs', `EPSG:${epsg}`, '-r', 'bilinear', source, out])
  return out
}

/** A 48-sided WGS84 ring ([lng, lat], closed) of `radiusM` around (cx, cy) in `srs`'s plane. */
async function circleRing(cx: number, cy: number, radiusM: number, srs: string) {
  const projected: [number, number][] = []
  for (let i = 0; i < 48; i++) {
    const angle = (2 * Math.PI * i) / 48
    projected.push([cx + radiusM * Math.cos(angle), cy + radiusM * Math.sin(angle)])
  }
  const ring = await transformPoints(projected, srs, 'EPSG:4326')
  return [...ring, ring[0]!]
}

/** The WGS84 point `eastM` east and `northM` north of CHANGE_SITE (in UTM 34S). */
export async function siteOffset(eastM: number, northM: number) {
  const [[cx, cy]] = (await transformPoints(
    [[CHANGE_SITE.lng, CHANGE_SITE.lat]],
    'EPSG:4326',
    'EPSG:32734',
  )) as [[number, number]]
  const [[lng, lat]] = (await transformPoints([[cx + eastM, cy + northM]], 'EPSG:32734', 'EPSG:4326')) as [
    [number, number],
  ]
  return { lng, lat }
}

/** A 48-sided WGS84 ring ([lng, lat], closed) of `radiusM` around `centre`, drawn in UTM 34S. */
export async function ringAround(radiusM: number, centre: { lng: number; lat: number } = CHANGE_SITE) {
  const [[cx, cy]] = (await transformPoints([[centre.lng, centre.lat]], 'EPSG:4326', 'EPSG:32734')) as [
    [number, number],
  ]
  return circleRing(cx, cy, radiusM, 'EPSG:32734')
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

/** The Map view's viewing copy as the job makes it: a COG in the raster's own CRS (recorded for the browser), JPEG for imagery, DEFLATE for heights. */
export async function buildViewingCog(source: string, out: string, kind: 'orthomosaic' | 'elevation') {
  const { stdout } = await run('gdalsrsinfo', ['-o', 'proj4', source], { encoding: 'utf8' })
  const compression =
    kind === 'orthomosaic'
      ? // With a mask, as the job writes for an orthomosaic with alpha or nodata: the map reads it per level.
        ['-b', '1', '-b', '2', '-b', '3', '-mask', 'mask', '-co', 'COMPRESS=JPEG', '-co', 'QUALITY=85']
      : ['-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=YES']
  await run('gdal_translate', [
    ...[
      '-q',
      '-of',
      'COG',
      '-co',
      'BLOCKSIZE=512',
      '-co',
      'OVERVIEWS=AUTO',
      '-co',
      'OVERVIEW_RESAMPLING=AVERAGE',
    ],
    ...compression,
    ...['-mo', `${CRS_ITEM}=${stdout.trim().replace(/^'|'$/g, '')}`],
    source,
    out,
  ])
  return out
}

/**
 * What a site's two surveys are built from, in `dir`: the 25 m survey area ring, the stockpile's
 * DSM (UTM 34S), the flat ground left once it was carted away (in `flat`'s CRS and pixel), an
 * orthomosaic and its thumbnail.
 */
export async function buildSiteSurveys(dir: string, flat: { epsg: number; pixelM: number }) {
  const ortho = await buildOrthomosaic(dir, 32734, 256)
  return {
    areaRing: await ringAround(25),
    pile: await buildReliefDsm(dir, { epsg: 32734, pixelM: 0.3, relief: PILE }),
    flat: await buildReliefDsm(dir, { ...flat, relief: { kind: 'flat' } }),
    ortho,
    thumbnail: await buildPreview(ortho, path.join(dir, 'thumbnail.png')),
  }
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
