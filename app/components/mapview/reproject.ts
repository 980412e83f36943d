/**
 * The pure maths of drawing a COG in its own CRS on a Web Mercator map: where a raster's
 * pixels are (GDAL's geotransform and the CRS's PROJ.4 text, through proj4js), which overview
 * a map tile reads, the window of it, and for each of the tile's pixels the raster pixel it
 * shows (nearest), from a small grid of exactly projected points interpolated in between.
 */
import proj4, { type Converter } from 'proj4'

/** GDAL's geotransform: x = gt[0] + col·gt[1] + row·gt[2], y = gt[3] + col·gt[4] + row·gt[5]. */
export type GeoTransform = [number, number, number, number, number, number]

/** A raster's pixels on the earth: full-level pixel (column, row; pixel i spans [i, i + 1)) ↔ lng/lat. */
export interface RasterPlace {
  toPixel(lng: number, lat: number): [number, number]
  toLngLat(x: number, y: number): [number, number]
}

/** The geotransform of GeoTIFF tags (ModelTransformation, or ModelTiepoint + ModelPixelScale), pixel-is-area. */
export function geoTransformOf(tags: {
  transformation?: ArrayLike<number> | null
  tiepoint?: ArrayLike<number> | null
  pixelScale?: ArrayLike<number> | null
}): GeoTransform | null {
  const t = tags.transformation
  if (t && t.length >= 8) return [t[3]!, t[0]!, t[1]!, t[7]!, t[4]!, t[5]!]
  const tie = tags.tiepoint
  const scale = tags.pixelScale
  if (!tie || !scale || tie.length < 6 || scale.length < 2) return null
  const [i, j, , x, y] = [tie[0]!, tie[1]!, tie[2]!, tie[3]!, tie[4]!]
  return [x - i * scale[0]!, scale[0]!, 0, y + j * scale[1]!, 0, -scale[1]!]
}

/** `proj4Text` as GDAL states a CRS (`gdalsrsinfo -o proj4`); its +axis (south-orientated Lo grids: wsu) is honoured. */
export function rasterPlace(proj4Text: string, gt: GeoTransform): RasterPlace | null {
  let converter: Converter
  try {
    converter = proj4(proj4Text)
  } catch {
    return null
  }
  const det = gt[1] * gt[5] - gt[2] * gt[4]
  if (!det || !Number.isFinite(det)) return null
  return {
    toPixel(lng, lat) {
      const [x, y] = converter.forward([lng, lat], true) as [number, number]
      const dx = x - gt[0]
      const dy = y - gt[3]
      return [(gt[5] * dx - gt[2] * dy) / det, (gt[1] * dy - gt[4] * dx) / det]
    },
    toLngLat(col, row) {
      const x = gt[0] + col * gt[1] + row * gt[2]
      const y = gt[3] + col * gt[4] + row * gt[5]
      return converter.inverse([x, y], true) as [number, number]
    },
  }
}

/** The raster's outline in lng/lat: [west, south, east, north], from points along its edges. */
export function outlineOf(place: RasterPlace, width: number, height: number, perSide = 16) {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity]
  for (let k = 0; k <= perSide; k++) {
    const f = k / perSide
    for (const [x, y] of [
      [f * width, 0],
      [f * width, height],
      [0, f * height],
      [width, f * height],
    ] as const) {
      const [lng, lat] = place.toLngLat(x, y)
      west = Math.min(west, lng)
      east = Math.max(east, lng)
      south = Math.min(south, lat)
      north = Math.max(north, lat)
    }
  }
  return [west, south, east, north] as const
}

/** A tile's plan: which level it reads, the window of it, and per tile pixel the index into that window (-1: off the raster). */
export interface TilePlan {
  level: number
  /** [x0, y0, x1, y1] in the level's pixels (x1, y1 exclusive), as geotiff.js's readRasters takes it. */
  window: [number, number, number, number]
  index: Int32Array
}

/** Grid points every this many tile pixels are projected exactly; the pixels between are interpolated. */
const GRID_STEP = 32

/**
 * The plan of a `width` × `height` tile whose pixel (x, y) (top left corner) is at `lngLatAt(x, y)`:
 * `levels` are the raster's full level then its overviews (any order), `place` its position.
 * Null when the tile does not touch the raster.
 */
export function planTile(
  place: RasterPlace,
  lngLatAt: (x: number, y: number) => [number, number],
  size: { width: number; height: number },
  levels: { width: number; height: number }[],
  step = GRID_STEP,
): TilePlan | null {
  const nx = Math.ceil(size.width / step) + 1
  const ny = Math.ceil(size.height / step) + 1
  const gx = new Float64Array(nx * ny)
  const gy = new Float64Array(nx * ny)
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      const [lng, lat] = lngLatAt(Math.min(i * step, size.width), Math.min(j * step, size.height))
      const [px, py] = place.toPixel(lng, lat)
      if (!Number.isFinite(px) || !Number.isFinite(py)) return null
      gx[j * nx + i] = px
      gy[j * nx + i] = py
    }
  const full = levels.reduce((a, b) => (b.width > a.width ? b : a))
  // Full-level pixels per tile pixel: the longest side of any grid cell over its length in tile pixels.
  let scale = 0
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      const k = j * nx + i
      const sx = Math.min((i + 1) * step, size.width) - i * step
      const sy = Math.min((j + 1) * step, size.height) - j * step
      if (i + 1 < nx) scale = Math.max(scale, Math.hypot(gx[k + 1]! - gx[k]!, gy[k + 1]! - gy[k]!) / sx)
      if (j + 1 < ny) scale = Math.max(scale, Math.hypot(gx[k + nx]! - gx[k]!, gy[k + nx]! - gy[k]!) / sy)
    }
  const level = chooseLevel(levels, full, scale)
  const chosen = levels[level]!
  const fx = chosen.width / full.width
  const fy = chosen.height / full.height
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity]
  for (let k = 0; k < gx.length; k++) {
    minX = Math.min(minX, gx[k]! * fx)
    maxX = Math.max(maxX, gx[k]! * fx)
    minY = Math.min(minY, gy[k]! * fy)
    maxY = Math.max(maxY, gy[k]! * fy)
  }
  const window: TilePlan['window'] = [
    Math.max(0, Math.floor(minX)),
    Math.max(0, Math.floor(minY)),
    Math.min(chosen.width, Math.ceil(maxX) + 1),
    Math.min(chosen.height, Math.ceil(maxY) + 1),
  ]
  if (window[0] >= window[2] || window[1] >= window[3]) return null
  const ww = window[2] - window[0]
  const index = new Int32Array(size.width * size.height).fill(-1)
  let any = false
  for (let y = 0; y < size.height; y++) {
    // Pixel centres, bilinear between the four grid points around them.
    const cy = (y + 0.5) / step
    const j = Math.min(Math.floor(cy), ny - 2)
    const v = (y + 0.5 - j * step) / (Math.min((j + 1) * step, size.height) - j * step)
    for (let x = 0; x < size.width; x++) {
      const cx = (x + 0.5) / step
      const i = Math.min(Math.floor(cx), nx - 2)
      const u = (x + 0.5 - i * step) / (Math.min((i + 1) * step, size.width) - i * step)
      const k = j * nx + i
      const px =
        (1 - v) * ((1 - u) * gx[k]! + u * gx[k + 1]!) + v * ((1 - u) * gx[k + nx]! + u * gx[k + nx + 1]!)
      const py =
        (1 - v) * ((1 - u) * gy[k]! + u * gy[k + 1]!) + v * ((1 - u) * gy[k + nx]! + u * gy[k + nx + 1]!)
      const col = Math.floor(px * fx)
      const row = Math.floor(py * fy)
      if (col < window[0] || row < window[1] || col >= window[2] || row >= window[3]) continue
      index[y * size.width + x] = (row - window[1]) * ww + (col - window[0])
      any = true
    }
  }
  return any ? { level, window, index } : null
}

/** The coarsest level whose pixel is no coarser than the tile's (`scale` full-level pixels per tile pixel). */
export function chooseLevel(
  levels: { width: number; height: number }[],
  full: { width: number },
  scale: number,
) {
  let best = levels.indexOf(full as { width: number; height: number })
  let bestWidth = full.width
  for (const [i, level] of levels.entries()) {
    if (level.width < bestWidth && full.width / level.width <= scale * 1.0001) {
      best = i
      bestWidth = level.width
    }
  }
  return best
}

/** One band's values at the tile's pixels (NaN off the raster or where `nodata`). */
export function sampleBand(band: ArrayLike<number>, index: Int32Array, nodata: number | null) {
  const out = new Float32Array(index.length).fill(Number.NaN)
  for (let i = 0; i < index.length; i++) {
    const k = index[i]!
    if (k < 0) continue
    const value = band[k]!
    if (value !== nodata) out[i] = value
  }
  return out
}

/** Lng/lat of a Web Mercator map pixel at zoom `z` with 256 px tiles (what Leaflet's EPSG3857 map unprojects). */
export function mercatorLngLat(x: number, y: number, z: number): [number, number] {
  const world = 256 * 2 ** z
  const lng = (x / world) * 360 - 180
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / world))) * 180) / Math.PI
  return [lng, lat]
}

/** JPEG COGs hold YCbCr (PhotometricInterpretation 6), which geotiff.js's readRasters returns as is: to RGB, in place. */
export function ycbcrToRgb(y: Float32Array, cb: Float32Array, cr: Float32Array) {
  for (let i = 0; i < y.length; i++) {
    const [l, b, r] = [y[i]!, cb[i]! - 128, cr[i]! - 128]
    y[i] = Math.min(255, Math.max(0, l + 1.402 * r))
    cb[i] = Math.min(255, Math.max(0, l - 0.344136 * b - 0.714136 * r))
    cr[i] = Math.min(255, Math.max(0, l + 1.772 * b))
  }
}
