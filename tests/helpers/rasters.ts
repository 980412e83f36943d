/**
 * Real GeoTIFFs (and LAS / ZIP deliverables) built by GDAL from nothing, for the
 * deliverables tests and the conversion bench. Coordinates are in the raster's own CRS:
 * UTM (easting, northing) or a Hartebeesthoek94 Lo grid (westing, southing).
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { zipSync } from 'fflate'

import { encodeLas } from '../../server/nodeodm-simulator/las.ts'

export interface RasterSpec {
  epsg: number
  /** Upper-left corner and lower-right corner in the CRS (as gdal_translate -a_ullr). */
  ullr: [number, number, number, number]
  widthPx: number
  heightPx: number
  bands: number
  type: 'Byte' | 'Int16' | 'Float32'
  /** One value per band (gdal_create -burn). */
  burn?: number[]
  nodata?: number
  creationOptions?: string[]
}

function rasterDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-raster-'))
}

/** A GeoTIFF of the given size and CRS, every pixel the `burn` values. Returns its path. */
export function buildRaster(spec: RasterSpec, file = path.join(rasterDir(), 'raster.tif')) {
  const burn = (spec.burn ?? Array.from({ length: spec.bands }, (_, i) => 60 + i * 50)).flatMap((v) => [
    '-burn',
    String(v),
  ])
  execFileSync('gdal_create', [
    '-q',
    '-of',
    'GTiff',
    '-outsize',
    String(spec.widthPx),
    String(spec.heightPx),
    '-bands',
    String(spec.bands),
    '-ot',
    spec.type,
    ...burn,
    '-a_srs',
    `EPSG:${spec.epsg}`,
    '-a_ullr',
    ...spec.ullr.map(String),
    ...(spec.nodata !== undefined ? ['-a_nodata', String(spec.nodata)] : []),
    ...(spec.creationOptions ?? []).flatMap((o) => ['-co', o]),
    file,
  ])
  return file
}

/**
 * A Float32 elevation model with a cone (height `peakM` over a flat `baseM`, radius in
 * pixels) in the middle — built as raw floats and given a CRS with gdal_translate.
 */
export function buildConeDsm(
  spec: Omit<RasterSpec, 'bands' | 'type' | 'burn'> & { baseM: number; peakM: number; radiusPx: number },
) {
  const dir = rasterDir()
  const raw = path.join(dir, 'dsm.bin')
  const values = new Float32Array(spec.widthPx * spec.heightPx)
  const cx = spec.widthPx / 2
  const cy = spec.heightPx / 2
  for (let y = 0; y < spec.heightPx; y++)
    for (let x = 0; x < spec.widthPx; x++) {
      const r = Math.hypot(x + 0.5 - cx, y + 0.5 - cy)
      values[y * spec.widthPx + x] = spec.baseM + Math.max(0, spec.peakM * (1 - r / spec.radiusPx))
    }
  fs.writeFileSync(raw, Buffer.from(values.buffer))
  // An ENVI header makes the raw floats a raster GDAL can read.
  fs.writeFileSync(
    path.join(dir, 'dsm.hdr'),
    `ENVI\nsamples = ${spec.widthPx}\nlines = ${spec.heightPx}\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = 4\ninterleave = bsq\nbyte order = 0\n`,
  )
  const out = path.join(dir, 'dsm.tif')
  execFileSync('gdal_translate', [
    '-q',
    '-of',
    'GTiff',
    '-a_srs',
    `EPSG:${spec.epsg}`,
    '-a_ullr',
    ...spec.ullr.map(String),
    ...(spec.nodata !== undefined ? ['-a_nodata', String(spec.nodata)] : []),
    raw,
    out,
  ])
  return out
}

/** A WGS84 point (longitude, latitude) in a CRS's own coordinates, by gdaltransform (GIS axis order: Lo = westing, southing). */
export function toCrs(epsg: number, lng: number, lat: number): [number, number] {
  const out = execFileSync('gdaltransform', ['-s_srs', 'EPSG:4326', '-t_srs', `EPSG:${epsg}`, '-output_xy'], {
    input: `${lng} ${lat}\n`,
    encoding: 'utf8',
  })
  const [x, y] = out.trim().split(/\s+/).map(Number)
  return [x!, y!]
}

/**
 * A flat elevation model (Float32, `heightM` everywhere, 0.5 m pixels, nodata −9999) near Cape Town
 * in a UTM CRS: `corner` is (18.42 E, 33.92 S) rounded to whole metres, the extent is given in
 * metres from it (west, south, east, north).
 */
export function flatModelNearCapeTown(
  file: string,
  epsg: number,
  heightM: number,
  extent: [number, number, number, number],
) {
  const [cx, cy] = toCrs(epsg, 18.42, -33.92)
  const corner = [Math.round(cx), Math.round(cy)] as const
  const [west, south, east, north] = extent
  buildRaster(
    {
      epsg,
      ullr: [corner[0] + west, corner[1] + north, corner[0] + east, corner[1] + south],
      widthPx: (east - west) / 0.5,
      heightPx: (north - south) / 0.5,
      bands: 1,
      type: 'Float32',
      burn: [heightM],
      nodata: -9999,
    },
    file,
  )
  return { path: file, x0: corner[0], y0: corner[1] }
}

/** `gdalinfo -json` of a file, parsed. */
export function gdalInfo(file: string) {
  return JSON.parse(
    execFileSync('gdalinfo', ['-json', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
  )
}

/** A LAS 1.2 point cloud (point format 0) with `count` points; `compressed` sets the LAZ bit. */
export function lasBytes(count = 10, compressed = false) {
  const header = Buffer.alloc(227)
  header.write('LASF', 0, 'latin1')
  header[24] = 1 // version 1.2
  header[25] = 2
  header.write('Kestrel tests', 26, 'latin1')
  header.writeUInt16LE(227, 94) // header size
  header.writeUInt32LE(227, 96) // offset to point data
  header.writeUInt32LE(0, 100) // VLRs
  header[104] = compressed ? 0x80 : 0 // point format
  header.writeUInt16LE(20, 105) // record length
  header.writeUInt32LE(count, 107)
  for (const [i, scale] of [0.01, 0.01, 0.01].entries()) header.writeDoubleLE(scale, 131 + i * 8)
  const points = Buffer.alloc(20 * count)
  for (let i = 0; i < count; i++) {
    points.writeInt32LE(i * 100, i * 20)
    points.writeInt32LE(i * 50, i * 20 + 4)
    points.writeInt32LE(1000 + i, i * 20 + 8)
  }
  return Buffer.concat([header, points])
}

/** A LAS written by the simulator's encoder: 400 coloured ground points, a 20 × 20 m grid in UTM 34S. */
export function groundCloudLas() {
  const points = Array.from({ length: 400 }, (_, i) => ({
    x: 300_000 + (i % 20),
    y: 6_200_000 + Math.floor(i / 20),
    z: 12 + (i % 7),
    classification: 2,
    r: 200,
    g: 120,
    b: 40,
  }))
  return Buffer.from(encodeLas(points, 32734, new Date()))
}

/**
 * A cone DSM (UTM 34S, 400 × 300 px over `ullr`) and an RGB orthomosaic of it, its heights as
 * grey, so that resampling shows: both paths.
 */
export function shadedOrthomosaic(ullr: [number, number, number, number]) {
  const cone = buildConeDsm({
    epsg: 32734,
    ullr,
    widthPx: 400,
    heightPx: 300,
    baseM: 40,
    peakM: 30,
    radiusPx: 140,
  })
  const ortho = path.join(path.dirname(cone), 'ortho.tif')
  const grey = ['-ot', 'Byte', '-scale', '40', '70', '20', '250', '-b', '1', '-b', '1', '-b', '1']
  execFileSync('gdal_translate', ['-q', ...grey, '-colorinterp', 'red,green,blue', cone, ortho])
  return { cone, ortho }
}

/** A ZIP of named entries (a 3D model: OBJ + MTL + a texture; a shapefile; …). */
export function zipBytes(entries: Record<string, string | Uint8Array>) {
  return Buffer.from(
    zipSync(
      Object.fromEntries(
        Object.entries(entries).map(([name, value]) => [
          name,
          typeof value === 'string' ? new TextEncoder().encode(value) : value,
        ]),
      ),
    ),
  )
}

/** A square survey area of `sizeM` metres centred on (lat, lng), corners clockwise from north-west. */
export function squareAround(lat: number, lng: number, sizeM: number) {
  const dLat = sizeM / 2 / 111_320
  const dLng = sizeM / 2 / (111_320 * Math.cos((lat * Math.PI) / 180))
  return [
    { latitude: lat + dLat, longitude: lng - dLng },
    { latitude: lat + dLat, longitude: lng + dLng },
    { latitude: lat - dLat, longitude: lng + dLng },
    { latitude: lat - dLat, longitude: lng - dLng },
  ]
}

/** A flight plan with one survey area (the shape `projects.flightPlan` stores). */
export function flightPlanJson(ring: Array<{ latitude: number; longitude: number }>) {
  return JSON.stringify({ areas: [{ areaNumber: 1, coordinates: ring }] })
}
