/**
 * The elevation change layer: for each map tile, both elevation models' viewing
 * COGs are read with geotiff.js for the tile's box at the tile's size — geotiff.js resamples
 * each onto that same grid, so the surveys' own CRS and ground resolution do not matter —
 * and After − Before is painted pixel by pixel (`change-ramp.ts`).
 */
import L from 'leaflet'

import { changeLimitOf, elevationChange, paintChange, type ChangeScale } from './change-ramp.ts'
import { canvasTileLayer, cogBounds, overlaps, type OpenedCog } from './cog-layer.client.ts'

const WGS84 = 4326
/** The grid the legend's limit is sampled on (geotiff.js reads a small overview for it). */
const SAMPLE_PX = 256

type Grid = { width: number; height: number }

function readHeights(cog: OpenedCog, box: number[], grid: Grid, signal?: AbortSignal) {
  return cog.tiff
    .readRasters({
      bbox: box,
      signal,
      pool: cog.pool,
      ...grid,
      samples: [0],
      resampleMethod: 'nearest',
      fillValue: Number.NaN,
      interleave: false,
    })
    .then((rasters) => (rasters as unknown as ArrayLike<number>[])[0]!)
}

/** Lat/lng bounds as a box in the COG's CRS (Web Mercator or WGS84). */
function boxIn(bounds: L.LatLngBounds, epsg: number | null) {
  const sw = bounds.getSouthWest()
  const ne = bounds.getNorthEast()
  if (epsg === WGS84) return [sw.lng, sw.lat, ne.lng, ne.lat]
  const a = L.CRS.EPSG3857.project(sw)
  const b = L.CRS.EPSG3857.project(ne)
  return [a.x, a.y, b.x, b.y]
}

/** Where the two models overlap (null when they do not). */
export function overlapOf(before: OpenedCog, after: OpenedCog) {
  const a = cogBounds(before)
  const b = cogBounds(after)
  if (!a.intersects(b)) return null
  return L.latLngBounds(
    [Math.max(a.getSouth(), b.getSouth()), Math.max(a.getWest(), b.getWest())],
    [Math.min(a.getNorth(), b.getNorth()), Math.min(a.getEast(), b.getEast())],
  )
}

/** The legend's ± limit (m), from both models read over their overlap on a small grid (cells under `minimumM` left out). */
export async function changeLimitFor(
  before: OpenedCog,
  after: OpenedCog,
  overlap: L.LatLngBounds,
  minimumM: number,
) {
  const grid = { width: SAMPLE_PX, height: SAMPLE_PX }
  const [b, a] = await Promise.all([
    readHeights(before, boxIn(overlap, before.epsg), grid),
    readHeights(after, boxIn(overlap, after.epsg), grid),
  ])
  return changeLimitOf(elevationChange(b, a, { before: before.nodata, after: after.nodata }), minimumM)
}

export function createChangeLayer(
  before: OpenedCog,
  after: OpenedCog,
  scale: ChangeScale,
  options: L.GridLayerOptions = {},
) {
  return canvasTileLayer((boxIn, size, image, signal) => {
    const beforeBox = boxIn(before.epsg)
    const afterBox = boxIn(after.epsg)
    if (!overlaps(beforeBox, before.bbox) || !overlaps(afterBox, after.bbox)) return null
    const grid = { width: size.x, height: size.y }
    return Promise.all([
      readHeights(before, beforeBox, grid, signal),
      readHeights(after, afterBox, grid, signal),
    ]).then(([b, a]) =>
      paintChange(elevationChange(b, a, { before: before.nodata, after: after.nodata }), scale, image.data),
    )
  }, options)
}
