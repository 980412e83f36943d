/** An elevation model's coloured picture (preview, thumbnail) in the map's one ramp, through GDAL. */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

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

/**
 * A thumbnail (`widthPx` wide) of an elevation model's COG in the map's ramp over `range`: the
 * site report's picture of a survey, stretched over both surveys' models as the site map is.
 */
export async function elevationThumbnail(
  cog: string,
  range: HeightRange,
  widthPx: number,
  options: GdalRunOptions,
): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-thumbnail-'))
  try {
    const small = path.join(dir, 'small.tif')
    const png = path.join(dir, 'thumbnail.png')
    const size = ['-outsize', String(widthPx), '0', '-r', 'average']
    await runGdal('gdal_translate', ['-q', '-of', 'GTiff', ...size, cog, small], options)
    await colourElevation(small, png, range, options)
    return await fs.readFile(png)
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
}
