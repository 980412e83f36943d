/**
 * The cut/fill colour map of an elevation model against a design, over the design's outline:
 * model − design per cell on the model's own grid, red where the model is above the design by
 * more than the tolerance (cut), blue where it is below (fill), clear within ±tolerance (0.05 m
 * unless asked) and where either has no height. A PNG in WGS84 over the design's extent, which the
 * map lays over those bounds; the figures themselves come from POST …/cut-fill, never from it.
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { countMeasure, requireElevationModel } from '#app/domain/deliverables/measure.server.ts'
import { gdal, isNodata } from '#app/domain/deliverables/raster-measure.server.ts'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import type { User } from '#db/schema.ts'

import { withAlignedCutOuts } from './cut-fill.server.ts'
import { requireDesignSurface } from './design-surfaces.server.ts'

/** The colour map's longest side (px): a map overlay, not a measure. */
const MAX_SIDE_PX = 2048
const CUT_RGBA = '220 38 38 210'
const FILL_RGBA = '37 99 235 210'

/** gdaldem's colour table: fill blue up to −tolerance, clear inside ±tolerance, cut red from +tolerance. */
function colourTable(toleranceM: number) {
  const edge = 1e-6
  return [
    'nv 0 0 0 0',
    `-100000 ${FILL_RGBA}`,
    `${-toleranceM} ${FILL_RGBA}`,
    `${-toleranceM + edge} 0 0 0 0`,
    `${toleranceM - edge} 0 0 0 0`,
    `${toleranceM} ${CUT_RGBA}`,
    `100000 ${CUT_RGBA}`,
  ].join('\n')
}

export async function cutFillMapPng(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  fileId: number,
  input: { designSurfaceId: number; toleranceM: number },
  { signal }: { signal?: AbortSignal } = {},
  db: DbOrTx = getDb(),
): Promise<Buffer> {
  const modelPath = requireElevationModel(user, projectId, fileId, db)
  const { design, rasterPath } = requireDesignSurface(user, projectId, input.designSurfaceId, db)
  await countMeasure(user.id)
  const run = { accountId: user.id, signal }
  const outline = design.outline.coordinates[0] as [number, number][]
  const tmp = path.join(ensureStorage().tmp, `cut-fill-map-${crypto.randomUUID()}`)
  const files = ['.bin', '.hdr', '.tif', '-wgs84.tif', '.txt', '.png'].map((ext) => `${tmp}${ext}`)
  const [raw, header, diff, wgs84, table, png] = files as [string, string, string, string, string, string]
  let side = MAX_SIDE_PX
  try {
    await withLocalFile(modelPath, (modelFile) =>
      withLocalFile(rasterPath, (designFile) =>
        withAlignedCutOuts(
          run,
          modelFile,
          designFile,
          outline,
          outline,
          async ({ model, design: planned, nodata, crs }) => {
            side = Math.min(MAX_SIDE_PX, Math.max(model.width, model.height))
            const values = new Float32Array(model.band.length)
            for (let i = 0; i < values.length; i++) {
              const z = model.band[i]!
              values[i] =
                isNodata(z, nodata) || !Number.isFinite(planned.band[i]!) ? Number.NaN : z - planned.band[i]!
            }
            await fs.writeFile(raw, Buffer.from(values.buffer))
            // An ENVI header makes the raw floats a raster GDAL can read.
            await fs.writeFile(
              header,
              `ENVI\nsamples = ${model.width}\nlines = ${model.height}\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = 4\ninterleave = bsq\nbyte order = 0\n`,
            )
            const [x0, y0] = model.origin as [number, number]
            const [rx, ry] = model.resolution as [number, number]
            const corners = [x0, y0, x0 + model.width * rx, y0 + model.height * ry].map(String)
            await gdal(run, 'gdal_translate', [
              '-q',
              '-a_srs',
              crs,
              '-a_ullr',
              ...corners,
              '-a_nodata',
              'nan',
              raw,
              diff,
            ])
          },
        ),
      ),
    )
    // The longer side as many pixels as the cut-out's (at most MAX_SIDE_PX), the other to scale.
    const [west, south, east, north] = design.extent
    const size = east - west >= north - south ? [String(side), '0'] : ['0', String(side)]
    await gdal(run, 'gdalwarp', [
      '-q',
      '-t_srs',
      'EPSG:4326',
      '-te',
      ...design.extent.map(String),
      '-ts',
      ...size,
      '-r',
      'near',
      '-dstnodata',
      'nan',
      diff,
      wgs84,
    ])
    await fs.writeFile(table, colourTable(input.toleranceM))
    await gdal(run, 'gdaldem', ['color-relief', '-q', '-alpha', '-of', 'PNG', wgs84, table, png])
    return await fs.readFile(png)
  } finally {
    await Promise.all([...files, `${png}.aux.xml`].map((f) => fs.rm(f, { force: true })))
  }
}
