/**
 * The elevation change layer: for each map tile, both elevation models' viewing COGs are
 * sampled on the tile's own pixel grid (`sampleCog`: each reprojected from its own CRS, so
 * two surveys in different CRSs and ground resolutions line up), and After − Before is
 * painted pixel by pixel (`change-ramp.ts`).
 */
import L from 'leaflet'

import { changeLimitOf, elevationChange, paintChange, type ChangeScale } from './change-ramp.ts'
import { canvasTileLayer, cogBounds, sampleCog, type OpenedCog, type TilePixels } from './cog-layer.client.ts'

/** The grid the legend's limit is sampled on (a small overview is read for it). */
const SAMPLE_PX = 256

type Grid = { width: number; height: number }

async function readHeights(cog: OpenedCog, lngLatAt: TilePixels, grid: Grid, signal?: AbortSignal) {
  const bands = await sampleCog(cog, lngLatAt, grid, signal, [0])
  return bands ? bands[0]! : new Float32Array(grid.width * grid.height).fill(Number.NaN)
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
  const [west, north] = [overlap.getWest(), overlap.getNorth()]
  const [dx, dy] = [(overlap.getEast() - west) / SAMPLE_PX, (north - overlap.getSouth()) / SAMPLE_PX]
  const lngLatAt: TilePixels = (x, y) => [west + x * dx, north - y * dy]
  const [b, a] = await Promise.all([readHeights(before, lngLatAt, grid), readHeights(after, lngLatAt, grid)])
  return changeLimitOf(elevationChange(b, a, { before: before.nodata, after: after.nodata }), minimumM)
}

export function createChangeLayer(
  before: OpenedCog,
  after: OpenedCog,
  scale: ChangeScale,
  options: L.GridLayerOptions = {},
) {
  return canvasTileLayer((lngLatAt, size, image, signal) => {
    const grid = { width: size.x, height: size.y }
    return Promise.all([
      sampleCog(before, lngLatAt, grid, signal, [0]),
      sampleCog(after, lngLatAt, grid, signal, [0]),
    ]).then(([b, a]) => {
      if (b && a)
        paintChange(
          elevationChange(b[0]!, a[0]!, { before: before.nodata, after: after.nodata }),
          scale,
          image.data,
        )
    })
  }, options)
}
