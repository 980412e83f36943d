/**
 * Elevation change between two elevation models over a polygon (ADR 271): B (the earlier
 * survey) is resampled by `gdalwarp` onto A's own grid — A's CRS, cell size and cell
 * alignment — in a window around the polygon only, A is cut to the polygon on that grid,
 * and d = A − B is summed over the cells valid in both. Different CRS (UTM, Lo) and ground
 * sampling distances are GDAL's business; the app never reads a geotransform to place data.
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'

import { MEASURE_MESSAGES, type ChangeFigures } from './measure-schemas.ts'
import {
  gdal,
  groundFrameOf,
  MAX_PIXELS,
  measurableRing,
  readFirstBand,
  round,
  sumDifferences,
  warpToFloat32,
  writeCutline,
  type MeasureRun,
} from './raster-measure.server.ts'

type Grid = {
  /** The CRS the cells are summed in (A's own, or the local UTM zone when A is in degrees). */
  srs: string
  /** Cell size in that CRS (metres). */
  cellX: number
  cellY: number
  /** A cell corner of A's grid the window snaps to. */
  originX: number
  originY: number
  /** A's extent in that CRS (xmin, ymin, xmax, ymax), null when A is compared in UTM instead. */
  extent: [number, number, number, number] | null
  nodata: number | null
}

type Window = { xmin: number; ymin: number; xmax: number; ymax: number; cellX: number; cellY: number }

/** Cells of margin around the polygon's projected bounds (its edges bow a little between corners). */
const MARGIN_CELLS = 2

async function gridOf(run: MeasureRun, file: string, ring: [number, number][]): Promise<Grid> {
  const info = JSON.parse(await gdal(run, 'gdalinfo', ['-json', '-nomd', file])) as {
    size?: [number, number]
    geoTransform?: number[]
    coordinateSystem?: { wkt?: string }
    bands?: { noDataValue?: number | string }[]
  }
  const wkt = info.coordinateSystem?.wkt ?? ''
  const gt = info.geoTransform
  const size = info.size
  if (!wkt || !gt || gt.length !== 6 || !size) throw new DomainError(422, MEASURE_MESSAGES.unreadable)
  const raw = info.bands?.[0]?.noDataValue
  const nodata = typeof raw === 'number' ? raw : raw === 'nan' ? Number.NaN : null
  const [x0, rx, , y0, , ry] = gt as [number, number, number, number, number, number]
  const frame = groundFrameOf(wkt, rx, ring)
  if (frame.utm) {
    // Degrees or Web Mercator: compared in the local UTM zone at about the model's own ground spacing.
    const cell = frame.cellM
    return { srs: frame.utm, cellX: cell, cellY: cell, originX: 0, originY: 0, extent: null, nodata }
  }
  const xs = [x0, x0 + rx * size[0]]
  const ys = [y0, y0 + ry * size[1]]
  return {
    srs: wkt,
    cellX: Math.abs(rx),
    cellY: Math.abs(ry),
    originX: x0,
    originY: y0,
    extent: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    nodata,
  }
}

/** The ring's corners in the grid's CRS, through GDAL (Lo systems keep their westing/southing axes). */
async function projectRing(run: MeasureRun, ring: [number, number][], srs: string) {
  const stdout = await gdal(
    run,
    'gdaltransform',
    ['-s_srs', 'EPSG:4326', '-t_srs', srs, '-output_xy'],
    ring.map(([lng, lat]) => `${lng} ${lat}`).join('\n') + '\n',
  )
  const points = stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
  if (points.length !== ring.length || points.some((p) => !Number.isFinite(p[0]) || !Number.isFinite(p[1])))
    throw new DomainError(422, MEASURE_MESSAGES.unreadable)
  return points as [number, number][]
}

/**
 * The polygon's bounds on A's grid: widened by a margin, clipped to A, snapped outwards to
 * A's cell edges, and made coarser (cells merged) when it would hold more than MAX_PIXELS.
 */
function windowOn(grid: Grid, corners: [number, number][]): Window {
  let xmin = Math.min(...corners.map((p) => p[0])) - MARGIN_CELLS * grid.cellX
  let xmax = Math.max(...corners.map((p) => p[0])) + MARGIN_CELLS * grid.cellX
  let ymin = Math.min(...corners.map((p) => p[1])) - MARGIN_CELLS * grid.cellY
  let ymax = Math.max(...corners.map((p) => p[1])) + MARGIN_CELLS * grid.cellY
  if (grid.extent) {
    xmin = Math.max(xmin, grid.extent[0])
    ymin = Math.max(ymin, grid.extent[1])
    xmax = Math.min(xmax, grid.extent[2])
    ymax = Math.min(ymax, grid.extent[3])
    if (!(xmax > xmin && ymax > ymin)) throw new DomainError(400, MEASURE_MESSAGES.outside)
  }
  const cells = ((xmax - xmin) / grid.cellX) * ((ymax - ymin) / grid.cellY)
  const merge = cells > MAX_PIXELS ? Math.ceil(Math.sqrt(cells / MAX_PIXELS)) : 1
  const cellX = grid.cellX * merge
  const cellY = grid.cellY * merge
  const down = (v: number, o: number, c: number) => o + Math.floor((v - o) / c) * c
  const up = (v: number, o: number, c: number) => o + Math.ceil((v - o) / c) * c
  return {
    xmin: down(xmin, grid.originX, cellX),
    xmax: up(xmax, grid.originX, cellX),
    ymin: down(ymin, grid.originY, cellY),
    ymax: up(ymax, grid.originY, cellY),
    cellX,
    cellY,
  }
}

function warpArgs(grid: Grid, window: Window, resampling: string) {
  return [
    '-t_srs',
    grid.srs,
    '-te',
    ...[window.xmin, window.ymin, window.xmax, window.ymax].map(String),
    '-tr',
    String(window.cellX),
    String(window.cellY),
    '-r',
    resampling,
  ]
}

/**
 * Cut, fill and net change (m³) of model A against the earlier model B over a WGS84 ring.
 * Cut is material removed (A below B), fill material added; net = fill − cut. Every cell
 * where both models have data counts, however little it moved (the minimum change is for
 * drawing the change map only); cells without data are skipped (`coveredPercent`).
 */
export async function elevationChangeOver(
  run: MeasureRun,
  fileA: string,
  fileB: string,
  ringInput: [number, number][],
): Promise<ChangeFigures> {
  const { ring, areaM2 } = measurableRing(ringInput)
  const grid = await gridOf(run, fileA, ring)
  const window = windowOn(grid, await projectRing(run, ring, grid.srs))
  const merged = window.cellX !== grid.cellX
  // On A's own grid A is copied cell for cell; merged cells are averaged; B (and an A
  // reprojected to UTM) is interpolated bilinearly.
  const resamplingA = merged ? 'average' : grid.extent ? 'near' : 'bilinear'
  const resamplingB = merged ? 'average' : 'bilinear'

  const tmp = path.join(ensureStorage().tmp, `change-${crypto.randomUUID()}`)
  const [cutline, warpedA, warpedB] = [`${tmp}.geojson`, `${tmp}-a.tif`, `${tmp}-b.tif`]
  try {
    await writeCutline(cutline, ring)
    // Only A is cut to the polygon: B is read around it too, so its cells at the edge
    // interpolate from real neighbours rather than from the cut.
    // Two processes side by side (one GDAL thread each): the answer waits for the slower one only.
    // Both settle before the files go (a refused one must not leave the other writing).
    const warps = await Promise.allSettled([
      warpToFloat32(run, fileA, warpedA, [...warpArgs(grid, window, resamplingA), '-cutline', cutline]),
      warpToFloat32(run, fileB, warpedB, warpArgs(grid, window, resamplingB)),
    ])
    for (const warp of warps) if (warp.status === 'rejected') throw warp.reason
    const [a, b] = [await readFirstBand(warpedA), await readFirstBand(warpedB)]
    if (a.width !== b.width || a.height !== b.height) throw new DomainError(422, MEASURE_MESSAGES.unreadable)
    // Where A is higher than B the ground was filled; where lower, cut.
    const {
      above: fill,
      below: cut,
      topCells: inA,
      compared,
    } = sumDifferences(a.band, (i) => b.band[i]!, grid.nodata)
    if (!inA) throw new DomainError(400, MEASURE_MESSAGES.outside)
    if (!compared) throw new DomainError(422, MEASURE_MESSAGES.noOverlap)
    const cutM3 = cut * a.pixelAreaM2
    const fillM3 = fill * a.pixelAreaM2
    return {
      areaM2: round(areaM2, 2),
      cutM3: round(cutM3, 2),
      fillM3: round(fillM3, 2),
      netM3: round(fillM3 - cutM3, 2),
      coveredPercent: round(Math.min(100, ((compared * a.pixelAreaM2) / areaM2) * 100), 1),
    }
  } finally {
    await Promise.all([cutline, warpedA, warpedB].map((f) => fs.rm(f, { force: true })))
  }
}
