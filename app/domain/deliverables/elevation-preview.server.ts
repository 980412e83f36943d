/** An elevation model's coloured picture (preview, thumbnail) in the map's one ramp, through GDAL. */
import fs from 'node:fs/promises'

import { gdalColourFile, type HeightRange } from './elevation-ramp.ts'
import { runGdal, type GdalRunOptions } from './gdal.server.ts'

/**
 * `source` (one band of heights) coloured into a PNG with alpha at `out`, stretched over
 * `range` as the map stretches it (null: the raster's own range, in shares of it).
 */
export async function colourElevation(
  source: string,
  out: string,
  range: HeightRange | null,
  options: GdalRunOptions,
) {
  const colours = `${out}.ramp.txt`
  await fs.writeFile(colours, gdalColourFile(range))
  try {
    await runGdal('gdaldem', ['color-relief', '-q', '-alpha', '-of', 'PNG', source, colours, out], options)
  } finally {
    await fs.rm(colours, { force: true })
  }
}
