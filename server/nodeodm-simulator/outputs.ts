/**
 * The products of a simulated task, in ODM's folder layout, made over the task's `boundary`
 * option (GeoJSON, EPSG:4326) or, without one, around the photos' EXIF positions:
 * - `odm_orthophoto/odm_orthophoto.tif` RGBA, `odm_dem/dsm.tif` and `odm_dem/dtm.tif`
 *   Float32 (nodata -9999), in the area's UTM zone, written by GDAL (`gdal_translate`,
 *   COG with the `cog` option), transparent / nodata outside the boundary;
 * - `odm_georeferencing/odm_georeferenced_model.las` (uncompressed LAS 1.2, see las.ts);
 * - `odm_texturing/odm_textured_model_geo.glb`; `odm_report/report.pdf`, `shots.geojson` and `stats.json`.
 * Every file says "SIMULATED PROCESSING" (TIFF ImageDescription, LAS generating software,
 * glTF asset extras, the report's title, shots' properties).
 */
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { ZipArchive } from 'archiver'
import exifr from 'exifr'

import { runGdal } from '../../app/domain/deliverables/gdal.server.ts'
import { readPhotoGps } from '../../app/domain/files/photo-gps.server.ts'
import { encodeGlb } from './glb.ts'
import { encodeLas, type LasPoint } from './las.ts'
import { optionIsOn, optionValue, type TaskOption } from './options.ts'
import { encodePng } from './png.ts'
import { realLayout, type RealEntry } from './real-layout.ts'
import { writeReport } from './report.ts'
import { cellCentre, orthoPixels, rasterizeRings, Scene, surfaceGrid, type Grid, type Ring } from './scene.ts'

export const SIMULATED_NOTE = "SIMULATED PROCESSING: made up by Kestrel's NodeODM simulator, not a survey"
const SOFTWARE = 'ODM 3.5.6-simulated (Kestrel NodeODM simulator)'
const NODATA = -9999
const MAX_CLOUD_POINTS = 60_000
const MAX_MESH_SIDE = 96
const MAX_BOUNDARY_POINTS = 20_000
/** Flight height assumed when the photos carry an altitude: the ground is this far below them. */
const FLIGHT_HEIGHT_M = 90

export interface ImageRecord {
  filename: string
  width: number | null
  height: number | null
  latitude: number | null
  longitude: number | null
  altitude: number | null
  camera_make: string | null
  camera_model: string | null
}

export interface ProductsInput {
  imagesDir: string
  images: string[]
  outDir: string
  options: readonly TaskOption[]
  signal: AbortSignal
  log: (line: string) => void
  onProgress: (percent: number) => void
  /** Longest side of the orthophoto in pixels (the DEMs get half): the simulator stays small. */
  rasterSize: number
}

type LngLat = [number, number]

/** The polygons of a GeoJSON value (Polygon, MultiPolygon, Feature, FeatureCollection), outer and inner rings, or null. */
export function boundaryPolygons(value: unknown): LngLat[][][] | null {
  const polygons: LngLat[][][] = []
  let points = 0
  const ring = (r: unknown): LngLat[] | null => {
    if (!Array.isArray(r) || r.length < 4) return null
    const out: LngLat[] = []
    for (const p of r) {
      if (!Array.isArray(p) || p.length < 2) return null
      const [lng, lat] = p as unknown[]
      if (
        typeof lng !== 'number' ||
        typeof lat !== 'number' ||
        !Number.isFinite(lng) ||
        !Number.isFinite(lat)
      )
        return null
      if (Math.abs(lng) > 180 || Math.abs(lat) > 84) return null
      out.push([lng, lat])
    }
    points += out.length
    return points > MAX_BOUNDARY_POINTS ? null : out
  }
  const polygon = (coords: unknown) => {
    if (!Array.isArray(coords) || !coords.length) return false
    const rings = coords.map(ring)
    if (rings.some((r) => r === null)) return false
    polygons.push(rings as LngLat[][])
    return true
  }
  const walk = (g: unknown, depth: number): boolean => {
    if (!g || typeof g !== 'object' || depth > 3) return false
    const o = g as { type?: unknown; coordinates?: unknown; geometry?: unknown; features?: unknown }
    if (o.type === 'Polygon') return polygon(o.coordinates)
    if (o.type === 'MultiPolygon') return Array.isArray(o.coordinates) && o.coordinates.every(polygon)
    if (o.type === 'Feature') return walk(o.geometry, depth + 1)
    if (o.type === 'FeatureCollection')
      return Array.isArray(o.features) && o.features.length > 0 && o.features.every((f) => walk(f, depth + 1))
    return false
  }
  return walk(value, 0) && polygons.length ? polygons : null
}

/** The UTM zone ODM would pick for a point (WGS84 / UTM, EPSG 326xx north, 327xx south). */
export function utmEpsg(lng: number, lat: number) {
  const zone = Math.min(60, Math.floor((lng + 180) / 6) + 1)
  return (lat < 0 ? 32700 : 32600) + zone
}

async function readImages(input: ProductsInput): Promise<ImageRecord[]> {
  const records: ImageRecord[] = []
  for (const filename of input.images) {
    if (input.signal.aborted) break
    const file = path.join(input.imagesDir, filename)
    const gps = await readPhotoGps(file)
    let tags: Record<string, unknown> | undefined
    try {
      tags = await exifr.parse(file, {
        pick: ['Make', 'Model', 'ExifImageWidth', 'ExifImageHeight', 'ImageWidth', 'ImageHeight'],
        gps: false,
        xmp: false,
        icc: false,
        iptc: false,
      })
    } catch {
      tags = undefined
    }
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null)
    const str = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, 100) : null)
    records.push({
      filename,
      width: num(tags?.ExifImageWidth) ?? num(tags?.ImageWidth),
      height: num(tags?.ExifImageHeight) ?? num(tags?.ImageHeight),
      latitude: gps.gpsLatitude,
      longitude: gps.gpsLongitude,
      altitude: gps.gpsAltitudeM,
      camera_make: str(tags?.Make),
      camera_model: str(tags?.Model),
    })
  }
  return records
}

/** A rectangle 30 m round the photos' positions (the area ODM would reconstruct). */
function areaAroundPhotos(records: ImageRecord[]): LngLat[][][] | null {
  const placed = records.filter((r) => r.latitude !== null && r.longitude !== null)
  if (!placed.length) return null
  const lats = placed.map((r) => r.latitude!)
  const lngs = placed.map((r) => r.longitude!)
  const midLat = (Math.min(...lats) + Math.max(...lats)) / 2
  const dLat = 30 / 111_320
  const dLng = 30 / (111_320 * Math.cos((midLat * Math.PI) / 180))
  const [w, e, s, n] = [
    Math.min(...lngs) - dLng,
    Math.max(...lngs) + dLng,
    Math.min(...lats) - dLat,
    Math.max(...lats) + dLat,
  ]
  return [
    [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  ]
}

/** Positions through GDAL (ogr2ogr), WGS84 → the UTM zone. */
async function toUtm(workDir: string, polygons: LngLat[][][], epsg: number, signal: AbortSignal) {
  const src = path.join(workDir, 'boundary-wgs84.geojson')
  const dst = path.join(workDir, 'boundary-utm.geojson')
  await fsp.writeFile(
    src,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: polygons } },
      ],
    }),
  )
  await fsp.rm(dst, { force: true })
  await runGdal(
    'ogr2ogr',
    [
      '-f',
      'GeoJSON',
      '-s_srs',
      'EPSG:4326',
      '-t_srs',
      `EPSG:${epsg}`,
      '-lco',
      'COORDINATE_PRECISION=3',
      dst,
      src,
    ],
    // The simulator stands for another machine: its GDAL is background work, never a client's request.
    { owner: 'conversion', signal },
  )
  const out = JSON.parse(await fsp.readFile(dst, 'utf8')) as {
    features: Array<{ geometry: { type: string; coordinates: number[][][] | number[][][][] } }>
  }
  const geometry = out.features[0]!.geometry
  const polys = (
    geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
  ) as number[][][][]
  return polys.flatMap((rings) => rings.map((r) => r.map(([x, y]) => [x!, y!] as [number, number])))
}

function gridOver(rings: Ring[], pixel: number, maxPx: number): Grid {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const ring of rings)
    for (const [x, y] of ring) {
      minX = Math.min(minX, x)
      maxX = Math.max(maxX, x)
      minY = Math.min(minY, y)
      maxY = Math.max(maxY, y)
    }
  const size = Math.max(maxX - minX, maxY - minY, 1)
  const px = Math.max(pixel, size / (maxPx - 1))
  const ulx = Math.floor(minX / px) * px
  const uly = Math.ceil(maxY / px) * px
  return {
    ulx,
    uly,
    pixel: px,
    width: Math.max(1, Math.ceil((maxX - ulx) / px)),
    height: Math.max(1, Math.ceil((uly - minY) / px)),
  }
}

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve))

type RasterKind = 'rgba' | 'float'

/** Raw band-sequential pixels → a GeoTIFF (or COG) in the area's CRS, through an ENVI header and gdal_translate. */
async function writeRaster(
  file: string,
  grid: Grid,
  epsg: number,
  kind: RasterKind,
  data: Uint8Array | Float32Array,
  opts: { cog: boolean; compression: string; signal: AbortSignal; workDir: string },
) {
  const raw = path.join(opts.workDir, `${path.basename(file, '.tif')}.raw`)
  await fsp.writeFile(raw, Buffer.from(data.buffer, data.byteOffset, data.byteLength))
  await fsp.writeFile(
    raw.replace(/\.raw$/, '.hdr'),
    [
      'ENVI',
      `samples = ${grid.width}`,
      `lines = ${grid.height}`,
      `bands = ${kind === 'rgba' ? 4 : 1}`,
      'header offset = 0',
      'file type = ENVI Standard',
      `data type = ${kind === 'rgba' ? 1 : 4}`,
      'interleave = bsq',
      'byte order = 0',
      '',
    ].join('\n'),
  )
  const lrx = grid.ulx + grid.width * grid.pixel
  const lry = grid.uly - grid.height * grid.pixel
  const compression = opts.compression === 'JPEG' ? 'DEFLATE' : opts.compression
  const creation = opts.cog
    ? ['-of', 'COG', '-co', `COMPRESS=${compression}`, '-co', 'BLOCKSIZE=256', '-co', 'BIGTIFF=IF_SAFER']
    : ['-of', 'GTiff', '-co', 'TILED=YES', '-co', `COMPRESS=${compression}`, '-co', 'BIGTIFF=IF_SAFER']
  await fsp.rm(file, { force: true })
  await runGdal(
    'gdal_translate',
    [
      '-q',
      ...creation,
      '-a_srs',
      `EPSG:${epsg}`,
      '-a_ullr',
      String(grid.ulx),
      String(grid.uly),
      String(lrx),
      String(lry),
      ...(kind === 'rgba' ? ['-colorinterp', 'red,green,blue,alpha'] : ['-a_nodata', String(NODATA)]),
      '-mo',
      `TIFFTAG_IMAGEDESCRIPTION=${SIMULATED_NOTE}`,
      '-mo',
      `TIFFTAG_SOFTWARE=${SOFTWARE}`,
      '-mo',
      'SIMULATED_PROCESSING=YES',
      raw,
      file,
    ],
    { owner: 'conversion', signal: opts.signal, timeoutMs: 120_000 },
  )
  await fsp.rm(raw, { force: true })
  await fsp.rm(raw.replace(/\.raw$/, '.hdr'), { force: true })
}

/** Makes every product the options ask for in `outDir`; returns the images' records (for images.json). */
export async function makeProducts(input: ProductsInput): Promise<ImageRecord[]> {
  const { options, signal, log } = input
  const records = await readImages(input)
  const boundaryOption = optionValue(options, 'boundary')
  let polygons: LngLat[][][] | null = null
  if (typeof boundaryOption === 'string' && boundaryOption.trim()) {
    try {
      polygons = boundaryPolygons(JSON.parse(boundaryOption))
    } catch {
      polygons = null
    }
    if (polygons) log(`Using boundary from the options (${polygons.length} polygon(s))`)
    else log("The boundary option is not a GeoJSON polygon: using the photos' positions")
  }
  polygons ??= areaAroundPhotos(records)
  if (!polygons)
    throw new Error('No GPS positions in the photos and no boundary: the dataset cannot be georeferenced')

  const outer = polygons.flatMap((p) => p[0]!)
  const centreLng = outer.reduce((s, p) => s + p[0], 0) / outer.length
  const centreLat = outer.reduce((s, p) => s + p[1], 0) / outer.length
  const epsg = utmEpsg(centreLng, centreLat)
  const workDir = path.join(input.outDir, 'simulator_tmp')
  await fsp.mkdir(workDir, { recursive: true })
  const rings = await toUtm(workDir, polygons, epsg, signal)
  log(`Output CRS: EPSG:${epsg} (WGS 84 / UTM)`)

  const altitudes = records.map((r) => r.altitude).filter((a): a is number => a !== null)
  const base = altitudes.length
    ? altitudes.reduce((s, a) => s + a, 0) / altitudes.length - FLIGHT_HEIGHT_M
    : 40
  const seed = Math.round(centreLng * 1000) * 31 + Math.round(centreLat * 1000)
  const scene = new Scene(base, seed)

  const fast = optionIsOn(options, 'fast-orthophoto')
  const cog = optionIsOn(options, 'cog')
  const compression = String(optionValue(options, 'orthophoto-compression') ?? 'DEFLATE')
  const orthoRes = Number(optionValue(options, 'orthophoto-resolution') ?? 5) / 100
  const demRes = Number(optionValue(options, 'dem-resolution') ?? 5) / 100
  const made: string[] = []
  const rasterOpts = { cog, signal, workDir }

  // Orthophoto (also the texture, the points' colours and the report's picture), DSM, DTM.
  const orthoGrid = gridOver(rings, Math.max(orthoRes, 0.01), input.rasterSize)
  const orthoMask = rasterizeRings(orthoGrid, rings)
  const rgba = orthoPixels(scene, orthoGrid, orthoMask, surfaceGrid(scene, orthoGrid))
  await breathe()
  const demGrid = gridOver(rings, Math.max(demRes, 0.01), Math.max(16, Math.round(input.rasterSize / 2)))
  const demMask = rasterizeRings(demGrid, rings)
  const dsm = surfaceGrid(scene, demGrid)
  const writes: Promise<void>[] = []
  if (!optionIsOn(options, 'skip-orthophoto')) {
    await fsp.mkdir(path.join(input.outDir, 'odm_orthophoto'), { recursive: true })
    writes.push(
      writeRaster(
        path.join(input.outDir, 'odm_orthophoto', 'odm_orthophoto.tif'),
        orthoGrid,
        epsg,
        'rgba',
        rgba,
        {
          ...rasterOpts,
          compression,
        },
      ),
    )
    made.push(
      `Orthophoto: ${orthoGrid.width} x ${orthoGrid.height} px at ${(orthoGrid.pixel * 100).toFixed(1)} cm/px`,
    )
  }
  for (const which of ['dsm', 'dtm'] as const) {
    if (!optionIsOn(options, which)) continue
    const values = which === 'dsm' ? Float32Array.from(dsm) : surfaceGrid(scene, demGrid, 'ground')
    for (let i = 0; i < values.length; i++) if (!demMask[i]) values[i] = NODATA
    await fsp.mkdir(path.join(input.outDir, 'odm_dem'), { recursive: true })
    writes.push(
      writeRaster(path.join(input.outDir, 'odm_dem', `${which}.tif`), demGrid, epsg, 'float', values, {
        ...rasterOpts,
        compression: 'DEFLATE',
      }),
    )
    made.push(
      `${which.toUpperCase()}: ${demGrid.width} x ${demGrid.height} px at ${(demGrid.pixel * 100).toFixed(1)} cm/px`,
    )
  }
  // GDAL writes them side by side (each one child process).
  await Promise.all(writes)
  for (const line of made) log(line)
  input.onProgress(55)

  // Point cloud (sparse with fast-orthophoto, as ODM's), coloured from the orthophoto.
  const inside = demMask.reduce((sum, v) => sum + v, 0)
  const stride = Math.max(1, Math.ceil(Math.sqrt(inside / (fast ? MAX_CLOUD_POINTS / 8 : MAX_CLOUD_POINTS))))
  const points: LasPoint[] = []
  const orthoN = orthoGrid.width * orthoGrid.height
  for (let row = 0; row < demGrid.height; row += stride)
    for (let col = 0; col < demGrid.width; col += stride) {
      const i = row * demGrid.width + col
      if (!demMask[i]) continue
      const [x, y] = cellCentre(demGrid, col, row)
      const oc = Math.min(orthoGrid.width - 1, Math.max(0, Math.floor((x - orthoGrid.ulx) / orthoGrid.pixel)))
      const or = Math.min(
        orthoGrid.height - 1,
        Math.max(0, Math.floor((orthoGrid.uly - y) / orthoGrid.pixel)),
      )
      const o = or * orthoGrid.width + oc
      points.push({
        x,
        y,
        z: dsm[i]!,
        classification: scene.classOf(x, y),
        r: rgba[o]!,
        g: rgba[orthoN + o]!,
        b: rgba[2 * orthoN + o]!,
      })
    }
  await fsp.mkdir(path.join(input.outDir, 'odm_georeferencing'), { recursive: true })
  await fsp.writeFile(
    path.join(input.outDir, 'odm_georeferencing', 'odm_georeferenced_model.las'),
    encodeLas(points, epsg, new Date()),
  )
  made.push(`Point cloud: ${points.length} points (LAS 1.2, uncompressed)`)
  log(made[made.length - 1]!)
  if (optionIsOn(options, 'pc-copc'))
    log('pc-copc: the simulator cannot write COPC/LAZ; the point cloud is LAS only')
  input.onProgress(70)

  // Textured model.
  if (!fast && !optionIsOn(options, 'skip-3dmodel') && optionIsOn(options, 'gltf')) {
    const glb = await texturedModel(rings, orthoGrid, rgba, scene, epsg)
    await fsp.mkdir(path.join(input.outDir, 'odm_texturing'), { recursive: true })
    await fsp.writeFile(path.join(input.outDir, 'odm_texturing', 'odm_textured_model_geo.glb'), glb.bytes)
    made.push(`Textured model: ${glb.triangles} triangles (glTF 2.0 binary)`)
    log(made[made.length - 1]!)
  }
  input.onProgress(85)

  // Report and camera positions.
  await fsp.mkdir(path.join(input.outDir, 'odm_report'), { recursive: true })
  await fsp.writeFile(
    path.join(input.outDir, 'odm_report', 'shots.geojson'),
    JSON.stringify(shotsOf(records, base)),
  )
  // ODM's statistics, in its shape: no ground control was used, so no accuracy is stated (gcp_errors empty).
  await fsp.writeFile(
    path.join(input.outDir, 'odm_report', 'stats.json'),
    JSON.stringify({
      simulated: true,
      reconstruction_statistics: { has_gcp: false, initial_shots_count: records.length },
      gcp_errors: {},
      odm_processing_statistics: { average_gsd: orthoGrid.pixel * 100 },
    }),
  )
  if (!optionIsOn(options, 'skip-report')) {
    const preview = previewPng(orthoGrid, rgba, 400, 3)
    await fsp.writeFile(
      path.join(input.outDir, 'odm_report', 'report.pdf'),
      await writeReport({
        images: records.length,
        geolocated: records.filter((r) => r.latitude !== null).length,
        epsg,
        areaHa: maskedArea(orthoMask, orthoGrid) / 10_000,
        products: made,
        options,
        preview,
      }),
    )
  }
  await fsp.rm(workDir, { recursive: true, force: true })
  input.onProgress(100)
  return records
}

function maskedArea(mask: Uint8Array, grid: Grid) {
  let inside = 0
  for (const v of mask) inside += v
  return inside * grid.pixel * grid.pixel
}

/** The orthophoto shrunk to at most `side` pixels (nearest neighbour), as PNG: RGBA, or RGB on white. */
function previewPng(grid: Grid, bsq: Uint8Array, side: number, channels: 3 | 4) {
  const scale = Math.max(grid.width, grid.height) / side
  const w = Math.max(1, Math.round(grid.width / Math.max(1, scale)))
  const h = Math.max(1, Math.round(grid.height / Math.max(1, scale)))
  const n = grid.width * grid.height
  const out = new Uint8Array(w * h * channels)
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sx = Math.min(grid.width - 1, Math.floor((x * grid.width) / w))
      const sy = Math.min(grid.height - 1, Math.floor((y * grid.height) / h))
      const i = sy * grid.width + sx
      const alpha = bsq[3 * n + i]!
      const o = (y * w + x) * channels
      if (channels === 4) out.set([bsq[i]!, bsq[n + i]!, bsq[2 * n + i]!, alpha], o)
      else out.set(alpha ? [bsq[i]!, bsq[n + i]!, bsq[2 * n + i]!] : [255, 255, 255], o)
    }
  return { png: encodePng(w, h, channels, out), width: w, height: h }
}

async function texturedModel(rings: Ring[], orthoGrid: Grid, rgba: Uint8Array, scene: Scene, epsg: number) {
  const size = Math.max(orthoGrid.width * orthoGrid.pixel, orthoGrid.height * orthoGrid.pixel)
  const meshGrid = gridOver(rings, size / MAX_MESH_SIDE, MAX_MESH_SIDE)
  const inside = rasterizeRings(meshGrid, rings)
  const originX = meshGrid.ulx + (meshGrid.width * meshGrid.pixel) / 2
  const originY = meshGrid.uly - (meshGrid.height * meshGrid.pixel) / 2
  const originZ = Math.round(scene.ground(originX, originY))
  const index = new Int32Array(meshGrid.width * meshGrid.height).fill(-1)
  const positions: number[] = []
  const uvs: number[] = []
  const texW = orthoGrid.width * orthoGrid.pixel
  const texH = orthoGrid.height * orthoGrid.pixel
  for (let row = 0; row < meshGrid.height; row++)
    for (let col = 0; col < meshGrid.width; col++) {
      if (!inside[row * meshGrid.width + col]) continue
      const [x, y] = cellCentre(meshGrid, col, row)
      index[row * meshGrid.width + col] = positions.length / 3
      positions.push(x - originX, y - originY, scene.surface(x, y) - originZ)
      uvs.push((x - orthoGrid.ulx) / texW, (orthoGrid.uly - y) / texH)
    }
  const indices: number[] = []
  for (let row = 0; row + 1 < meshGrid.height; row++)
    for (let col = 0; col + 1 < meshGrid.width; col++) {
      const tl = index[row * meshGrid.width + col]!
      const tr = index[row * meshGrid.width + col + 1]!
      const bl = index[(row + 1) * meshGrid.width + col]!
      const br = index[(row + 1) * meshGrid.width + col + 1]!
      // Counter-clockwise seen from above, so the faces look up.
      if (tl >= 0 && bl >= 0 && tr >= 0) indices.push(tl, bl, tr)
      if (tr >= 0 && bl >= 0 && br >= 0) indices.push(tr, bl, br)
    }
  const texture = previewPng(orthoGrid, rgba, 512, 4)
  const bytes = encodeGlb(
    { positions: new Float32Array(positions), uvs: new Float32Array(uvs), indices: new Uint32Array(indices) },
    { origin: [originX, originY, originZ], epsg, texturePng: texture.png },
  )
  return { bytes, triangles: indices.length / 3 }
}

/** ODM's shots.geojson: one point per geolocated photo (WGS84, with its altitude). */
function shotsOf(records: ImageRecord[], groundM: number) {
  return {
    type: 'FeatureCollection',
    features: records
      .filter((r) => r.latitude !== null && r.longitude !== null)
      .map((r) => ({
        type: 'Feature',
        geometry: {
          type: 'Point',
          coordinates: [r.longitude, r.latitude, r.altitude ?? groundM + FLIGHT_HEIGHT_M],
        },
        properties: {
          filename: r.filename,
          width: r.width,
          height: r.height,
          focal: 0.85,
          rotation: [0, 0, 0],
          simulated: true,
        },
      })),
  }
}

/** Where the simulator writes what it makes (under the task's project folder), as NodeODM zips them. */
const ALL_ZIP_PATHS = [
  'odm_orthophoto',
  'odm_georeferencing',
  'odm_texturing',
  'odm_dem',
  'images.json',
  'task_output.txt',
  'odm_report',
]

/** Products the simulator makes only when asked: absent (never a stand-in) when it did not. */
const MADE_ON_REQUEST = new Set([
  'odm_orthophoto/odm_orthophoto.tif',
  'odm_dem/dsm.tif',
  'odm_dem/dtm.tif',
  'odm_georeferencing/odm_georeferenced_model.las',
  // The simulator writes no LAZ (see README): its point cloud is the LAS beside it.
  'odm_georeferencing/odm_georeferenced_model.laz',
])

/** The real archive's bytes for an entry the simulator does not make: its 5-byte GLB, "\n" files, zeros. */
function standInFor(entry: RealEntry) {
  if (entry.name === 'odm_texturing/odm_textured_model_geo.glb') return Buffer.from('glTF\n')
  return Buffer.alloc(entry.size, entry.size === 1 ? 0x0a : 0)
}

/** Already compressed: stored as they are (deflating them again only costs time). */
const STORED = /\.(tif|tiff|glb|laz|pdf|png|jpe?g|zip|mbtiles|kmz|gpkg)$/i

async function filesUnder(root: string, rel: string, out: string[]) {
  const full = path.join(root, rel)
  let stat: fs.Stats
  try {
    stat = await fsp.lstat(full)
  } catch {
    return
  }
  // Links are never followed: nothing outside the project folder goes in.
  if (stat.isFile()) out.push(rel)
  else if (stat.isDirectory())
    for (const entry of (await fsp.readdir(full)).sort())
      await filesUnder(root, path.posix.join(rel, entry), out)
}

/**
 * Adds the archive's entries: with the task's `outputs`, those paths only; otherwise the real
 * test-mode archive's layout entry for entry (directory entries, odd and empty files, the
 * 5-byte GLB), each product the simulator made in its place, then what it made beyond that.
 */
async function addEntries(archive: ZipArchive, root: string, outputs: readonly string[]) {
  const addFile = (rel: string) =>
    archive.file(path.join(root, rel), { name: rel, store: STORED.test(rel) } as Parameters<
      typeof archive.file
    >[1])
  const made: string[] = []
  for (const rel of outputs.length ? outputs : ALL_ZIP_PATHS) {
    const full = path.resolve(root, rel)
    if (full.startsWith(root + path.sep))
      await filesUnder(root, path.relative(root, full).split(path.sep).join('/'), made)
  }
  if (outputs.length) return made.forEach(addFile)
  const left = new Set(made)
  for (const entry of realLayout()) {
    if (entry.name.endsWith('/')) archive.append(Buffer.alloc(0), { name: entry.name })
    else if (left.delete(entry.name)) addFile(entry.name)
    else if (!MADE_ON_REQUEST.has(entry.name)) archive.append(standInFor(entry), { name: entry.name })
  }
  left.forEach(addFile)
}

/** Writes `all.zip` (beside the products; renamed into place when whole, so a download never sees half of it). */
export async function zipProducts(projectDir: string, outputs: readonly string[], signal: AbortSignal) {
  const zip = path.join(projectDir, 'all.zip')
  const partial = `${zip}.partial`
  const root = path.resolve(projectDir)
  const archive = new ZipArchive({ zlib: { level: 1 } })
  await addEntries(archive, root, outputs)
  const abort = () => archive.abort()
  signal.addEventListener('abort', abort, { once: true })
  try {
    const written = pipeline(archive, fs.createWriteStream(partial))
    await archive.finalize()
    await written
    if (signal.aborted) throw new Error('canceled')
    await fsp.rename(partial, zip)
  } finally {
    signal.removeEventListener('abort', abort)
    await fsp.rm(partial, { force: true })
  }
}
