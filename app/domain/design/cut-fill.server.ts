/**
 * Cut and fill between an elevation model and a design surface over a WGS84 polygon (the design's
 * outline by default): the model is cut out by `gdalwarp -cutline` on its own grid (pixels whose
 * centre is inside; the local UTM zone for a model in degrees or Web Mercator, as every volume),
 * the design raster is warped onto exactly that grid (bilinear), and every cell where both have a
 * height counts: model above design is cut, below is fill, times the cell's area.
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { booleanIntersects, polygon as turfPolygon } from '@turf/turf'
import { countMeasure, requireElevationModel } from '#app/domain/deliverables/measure.server.ts'
import {
  groundFrameOf,
  MAX_PIXELS,
  measurableRing,
  rasterFacts,
  readFirstBand,
  round,
  sumDifferences,
  toPlane,
  warpToFloat32,
  writeCutline,
  type MeasureRun,
} from '#app/domain/deliverables/raster-measure.server.ts'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError, isDomainError } from '#app/lib/http/domain-error.ts'
import { withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import type { User } from '#db/schema.ts'

import { listDesignSurfaces, requireDesignSurface } from './design-surfaces.server.ts'

const CUT_FILL_MESSAGES = {
  outsideModel: 'The design surface does not overlap this elevation model.',
  outsideDesign: 'The polygon does not overlap the design surface.',
  noCells: 'The design surface and the elevation model have no heights in common inside this polygon.',
} as const

export type CutFillFigures = { cutM3: number; fillM3: number; netM3: number; areaM2: number }

/**
 * The cut-out's extent and cell: the ring's bounds in the target CRS grown to whole cells of the
 * model's own grid (so its pixels are read as they are; `-crop_to_cutline` snaps inward and drops
 * an edge row), or of the ground cell in the local UTM zone; coarser past MAX_PIXELS.
 */
async function cutOutGrid(
  run: MeasureRun,
  ring: [number, number][],
  target: string,
  own: { originX: number; originY: number; pixelSize: number } | null,
  cellM: number,
) {
  const plane = await toPlane(run, ring, target)
  const xs = plane.map((p) => p[0])
  const ys = plane.map((p) => p[1])
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  const pixels = ((maxX - minX) * (maxY - minY)) / cellM ** 2
  const coarser = pixels > MAX_PIXELS
  const cell = coarser ? cellM * Math.sqrt(pixels / MAX_PIXELS) : own ? Math.abs(own.pixelSize) : cellM
  const [ox, oy] = own ? [own.originX, own.originY] : [0, 0]
  const down = (v: number, o: number) => o + Math.floor((v - o) / cell - 1e-6) * cell
  const up = (v: number, o: number) => o + Math.ceil((v - o) / cell + 1e-6) * cell
  return { extent: [down(minX, ox), down(minY, oy), up(maxX, ox), up(maxY, oy)], cell, coarser }
}

/** The model and the design cut out on one grid: the same cells, CRS (`crs`) and extent. */
export type AlignedCutOuts = {
  model: Awaited<ReturnType<typeof readFirstBand>>
  design: Awaited<ReturnType<typeof readFirstBand>>
  nodata: number | null
  crs: string
}

/**
 * The model cut out by the ring on its own grid and the design warped onto exactly that grid,
 * handed to `read` (the files go after): 400 when the ring misses the model or the design.
 */
export async function withAlignedCutOuts<T>(
  run: MeasureRun,
  modelPath: string,
  designPath: string,
  ringInput: [number, number][],
  designOutline: [number, number][],
  read: (cutOuts: AlignedCutOuts) => Promise<T> | T,
): Promise<T> {
  const { ring } = measurableRing(ringInput)
  const facts = await rasterFacts(run, modelPath)
  if (!facts.outline || !booleanIntersects(turfPolygon([ring]), turfPolygon([facts.outline])))
    throw new DomainError(400, CUT_FILL_MESSAGES.outsideModel)
  if (!booleanIntersects(turfPolygon([ring]), turfPolygon([designOutline])))
    throw new DomainError(400, CUT_FILL_MESSAGES.outsideDesign)
  const frame = groundFrameOf(facts.wkt, facts.pixelSize, ring)
  const tmp = path.join(ensureStorage().tmp, `cut-fill-${crypto.randomUUID()}`)
  const [cutline, modelCut, designCut] = [`${tmp}.geojson`, `${tmp}-model.tif`, `${tmp}-design.tif`]
  try {
    await writeCutline(cutline, ring)
    const target = frame.utm ?? facts.wkt
    const grid = await cutOutGrid(run, ring, target, frame.utm ? null : facts, frame.cellM)
    const args = ['-cutline', cutline]
    if (frame.utm) args.push('-t_srs', frame.utm, '-r', grid.coarser ? 'average' : 'bilinear')
    else if (grid.coarser) args.push('-r', 'average')
    args.push('-te', ...grid.extent.map(String), '-tr', String(grid.cell), String(grid.cell))
    await warpToFloat32(run, modelPath, modelCut, args)
    const model = await readFirstBand(modelCut)
    const [x0, y0] = model.origin as [number, number]
    const [rx, ry] = model.resolution as [number, number]
    // The design on the model cut-out's own grid: same CRS, extent and cells.
    await warpToFloat32(run, designPath, designCut, [
      '-t_srs',
      target,
      '-te',
      ...[x0, y0 + model.height * ry, x0 + model.width * rx, y0].map(String),
      '-ts',
      String(model.width),
      String(model.height),
      '-r',
      'bilinear',
    ])
    const design = await readFirstBand(designCut)
    return await read({ model, design, nodata: facts.nodata, crs: target })
  } finally {
    await Promise.all([cutline, modelCut, designCut].map((f) => fs.rm(f, { force: true })))
  }
}

/** Cut, fill, net (m³) and the area compared (m²) between `modelPath` and `designPath` over `ring`. */
function cutFillOver(
  run: MeasureRun,
  modelPath: string,
  designPath: string,
  ringInput: [number, number][],
  designOutline: [number, number][],
): Promise<CutFillFigures> {
  return withAlignedCutOuts(
    run,
    modelPath,
    designPath,
    ringInput,
    designOutline,
    ({ model, design, nodata }) => {
      // Ground above the design is cut, below it fill.
      const sums = sumDifferences(model.band, (i) => design.band[i]!, nodata)
      const { above: cut, below: fill, topCells: modelCells, compared: cells } = sums
      if (!modelCells) throw new DomainError(400, CUT_FILL_MESSAGES.outsideModel)
      if (!cells) throw new DomainError(400, CUT_FILL_MESSAGES.noCells)
      const cellArea = model.pixelAreaM2
      return {
        cutM3: round(cut * cellArea, 2),
        fillM3: round(fill * cellArea, 2),
        netM3: round((cut - fill) * cellArea, 2),
        areaM2: round(cells * cellArea, 2),
      }
    },
  )
}

/** POST …/deliverables/{fileId}/cut-fill: whoever may measure the model and see the design. */
export async function measureCutFill(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  fileId: number,
  input: { designSurfaceId: number; ring?: [number, number][] },
  { signal }: { signal?: AbortSignal } = {},
  db: DbOrTx = getDb(),
): Promise<CutFillFigures> {
  const modelPath = requireElevationModel(user, projectId, fileId, db)
  const { design, rasterPath } = requireDesignSurface(user, projectId, input.designSurfaceId, db)
  await countMeasure(user.id)
  const outline = design.outline.coordinates[0] as [number, number][]
  return withLocalFile(modelPath, (model) =>
    withLocalFile(rasterPath, (raster) =>
      cutFillOver({ accountId: user.id, signal }, model, raster, input.ring ?? outline, outline),
    ),
  )
}

/**
 * A comparison for a report: its figures, or why it cannot be made (a polygon or design off the
 * model, no cells in common: a line in the report). Busy, stopped or broken is the caller's answer.
 */
export async function cutFillOrReason(
  signal: AbortSignal | undefined,
  measure: () => Promise<CutFillFigures>,
): Promise<CutFillFigures | string> {
  try {
    return await measure()
  } catch (error) {
    if (isDomainError(error) && error.status === 400 && !signal?.aborted) return error.message
    throw error
  }
}

/** One design surface against a model for a report: its figures, or why there are none. */
export type DesignComparison = { name: string; figures: CutFillFigures | null; note: string | null }

/**
 * Every design surface of the project the user sees, each against the model at `modelPath` over
 * its own outline (the site report). A busy server or a stopped request is the caller's answer.
 */
export async function designComparisons(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  modelPath: string,
  signal: AbortSignal | undefined,
  db: DbOrTx = getDb(),
): Promise<DesignComparison[]> {
  const designs = listDesignSurfaces(user, projectId, db)
  if (designs.length) await countMeasure(user.id)
  const out: DesignComparison[] = []
  for (const design of designs) {
    const { rasterPath } = requireDesignSurface(user, projectId, design.id, db)
    const outline = design.outline.coordinates[0] as [number, number][]
    const figures = await cutFillOrReason(signal, () =>
      withLocalFile(modelPath, (model) =>
        withLocalFile(rasterPath, (raster) =>
          cutFillOver({ accountId: user.id, signal }, model, raster, outline, outline),
        ),
      ),
    )
    out.push(
      typeof figures === 'string'
        ? { name: design.name, figures: null, note: figures }
        : { name: design.name, figures, note: null },
    )
  }
  return out
}
