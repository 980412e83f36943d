/**
 * The GDAL recipes of a raster deliverable's viewing copy (the queue that runs them is
 * `view-jobs.server.ts`). In DATA_DIR/views/<fileId>/: a Cloud Optimized GeoTIFF in Web Mercator
 * (what Leaflet draws; WEBP with alpha for imagery, DEFLATE for elevation, overviews), a ~1600 px
 * PNG preview (elevation in the map's colour ramp), a ~320 px PNG thumbnail and the view-only
 * links' reduced copy (`cog.view-only.tif`: half the resolution, an elevation model as colours).
 * Files are written as `.partial` and renamed when all exist. The original stays as uploaded.
 * One warp, one lossless overview pyramid, both copies encoded from it (no level resampled twice).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { absolutePathOf, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { makeThreeDCopies } from '#app/domain/threed/three-d-copies.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import type { DbOrTx } from '#app/lib/db/db.server.ts'
import { ensureLocalFile } from '#app/lib/storage/file-cache.server.ts'
import {
  queueObjectDeletesUnder,
  queueStoredFile,
  storageKeyOf,
  storedObjectOf,
} from '#app/lib/storage/outbox.server.ts'
import { deliverableViews, projectFiles, type ProjectFile, type RasterInfo } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { colourElevation } from './elevation-preview.server.ts'
import { gdalColourFile } from './elevation-ramp.ts'
import { runGdal, type GdalOwner } from './gdal.server.ts'
import { gdalInfoJson, kindOfRaster } from './raster-info.server.ts'

/** Where the view-only links' copy of a COG is kept: beside it (see `makeReducedCopy`). */
export function reducedCopyName(cogName: string) {
  return `${cogName.replace(/\.tif$/, '')}.view-only.tif`
}
const PREVIEW_PX = 1600
const THUMBNAIL_PX = 320
/** A conversion may take long (tens of GB); it is still bounded so nothing hangs forever. */
const CONVERT_TIMEOUT_MS = 6 * 60 * 60 * 1000
const STEP_TIMEOUT_MS = 30 * 60 * 1000
/** Warp memory (MB): chunks big enough for the threads to share, small for a 512 MB machine. */
const WARP_MEMORY_MB = 128

/** Overview factors 2, 4, 8, … until the level fits in one 512 px block (at least the half a reduced copy is). */
function overviewFactors(width: number, height: number) {
  const factors = [2]
  while (Math.max(width, height) / factors[factors.length - 1]! > 512)
    factors.push(factors[factors.length - 1]! * 2)
  return factors.map(String)
}

/** The `.ovr` pyramid: lossless and quick (ZSTD), 512 px blocks, RGB(A) kept as such for imagery. */
function pyramidConfig(imagery: boolean) {
  return [
    ...['--config', 'COMPRESS_OVERVIEW', 'ZSTD', '--config', 'ZSTD_LEVEL', '1'],
    ...['--config', 'GDAL_TIFF_OVR_BLOCKSIZE', '512', '--config', 'BIGTIFF_OVERVIEW', 'IF_SAFER'],
    ...(imagery ? ['--config', 'PHOTOMETRIC_OVERVIEW', 'RGB'] : []),
  ]
}

/** The cores one job may use: the machine's, shared by the RASTER_JOBS that may run at once. */
function jobThreads() {
  return Math.max(1, Math.floor(os.availableParallelism() / getEnv().RASTER_JOBS))
}

function viewDir(fileId: number) {
  return path.join(storagePaths().views, String(fileId))
}

/** The 3D deliverable's copies (point cloud or model, `threed/`) in its views folder. */
export async function makeThreeDViewCopies(file: ProjectFile, signal: AbortSignal) {
  const dir = viewDir(file.id)
  await fs.promises.rm(dir, { recursive: true, force: true })
  await fs.promises.mkdir(dir, { recursive: true })
  await makeThreeDCopies(file, dir, signal)
}

/** Removes a deliverable's viewing copies (retention, deletion, the sweep). */
export async function removeViewCopies(fileId: number) {
  await fs.promises.rm(viewDir(fileId), { recursive: true, force: true })
  queueObjectDeletesUnder(`views/${fileId}`)
}

interface Made {
  cogName: string
  previewName: string
  thumbnailName: string
  minValue: number | null
  maxValue: number | null
}

/**
 * The copy a view-only share link reads instead of the COG (so the full-resolution data cannot
 * be rebuilt from the viewer's reads): half the COG's resolution, so no level is finer than twice
 * the GSD, and an elevation model rendered in the map's colours (no heights).
 */
export async function makeReducedCopy({
  cog,
  out,
  size,
  kind,
  range,
  step,
  halfIsFirstOverview = false,
}: {
  cog: string
  /** The file to write (the job writes a `.partial` and renames it with the others). */
  out: string
  size: { width: number; height: number }
  kind: 'imagery' | 'elevation' | 'other'
  range: { min: number | null; max: number | null }
  step: { owner: GdalOwner; signal?: AbortSignal; timeoutMs: number; threads?: number }
  /** `cog`'s first overview is its half (the job's pyramid): read it and its overviews, computing none. */
  halfIsFirstOverview?: boolean
}) {
  const half = halfIsFirstOverview
    ? ['-oo', 'OVERVIEW_LEVEL=0']
    : [
        '-outsize',
        String(Math.max(1, Math.round(size.width / 2))),
        String(Math.max(1, Math.round(size.height / 2))),
        '-r',
        'average',
      ]
  const cogOut = (overviews: 'AUTO' | 'FORCE_USE_EXISTING') => [
    ...['-of', 'COG', '-co', 'BLOCKSIZE=512', '-co', `OVERVIEWS=${overviews}`, '-co', 'BIGTIFF=IF_SAFER'],
    ...['-co', `NUM_THREADS=${step.threads ?? 1}`],
  ]
  const webp = ['-co', 'COMPRESS=WEBP', '-co', 'QUALITY=85']
  if (kind !== 'elevation') {
    const compress = kind === 'imagery' ? webp : ['-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=YES']
    const overviews = halfIsFirstOverview ? 'FORCE_USE_EXISTING' : 'AUTO'
    await runGdal('gdal_translate', ['-q', ...half, ...cogOut(overviews), ...compress, cog, out], step)
    return out
  }
  // Virtual steps (no temporary rasters): halve, colour, then write one WEBP COG with alpha.
  const halfVrt = `${out}.half.vrt`
  const colourVrt = `${out}.colour.vrt`
  const ramp = `${out}.ramp.txt`
  const absolute = range.min !== null && range.max !== null && range.max > range.min
  await fs.promises.writeFile(ramp, gdalColourFile(absolute ? { min: range.min!, max: range.max! } : null))
  await runGdal('gdal_translate', ['-q', '-of', 'VRT', ...half, cog, halfVrt], step)
  await runGdal('gdaldem', ['color-relief', '-q', '-alpha', '-of', 'VRT', halfVrt, ramp, colourVrt], step)
  await runGdal('gdal_translate', ['-q', ...cogOut('AUTO'), ...webp, colourVrt, out], step)
  for (const temporary of [halfVrt, colourVrt, ramp]) await fs.promises.rm(temporary, { force: true })
  return out
}

/** How a raster is drawn: a one-band elevation model in colours, 8-bit RGB(A) imagery, or anything else as grey. */
function copyKind(file: ProjectFile, info: RasterInfo): 'imagery' | 'elevation' | 'other' {
  if ((file.deliverableKind ?? kindOfRaster(info)) === 'elevation' && info.bandCount === 1) return 'elevation'
  return info.dataType === 'Byte' && (info.bandCount === 3 || info.bandCount === 4) ? 'imagery' : 'other'
}

/** Makes the copies of one raster; progress 0–100 through `onProgress`. */
export async function makeViewCopies(
  file: ProjectFile,
  info: RasterInfo,
  signal: AbortSignal,
  onProgress: (percent: number) => void,
): Promise<Made> {
  const source = await ensureLocalFile(absolutePathOf(file))
  const dir = viewDir(file.id)
  await fs.promises.rm(dir, { recursive: true, force: true })
  await fs.promises.mkdir(dir, { recursive: true })
  const rel = (name: string) => path.posix.join('views', String(file.id), name)
  const cog = path.join(dir, 'cog.tif.partial')
  const kind = copyKind(file, info)
  const [elevation, imagery] = [kind === 'elevation', kind === 'imagery']
  const threads = jobThreads()
  // The warp runs once, into a quickly compressed temporary file: `gdalwarp -of COG` would warp
  // twice (once for the overviews, once for the full level), the costliest half of the job.
  const warped = path.join(dir, 'warped.tif.partial')
  const warp = [
    '-q',
    '-t_srs',
    'EPSG:3857',
    '-of',
    'GTiff',
    '-wm',
    String(WARP_MEMORY_MB),
    '-multi',
    '-wo',
    `NUM_THREADS=${threads}`,
    '-r',
    'bilinear',
    '-overwrite',
    ...(imagery
      ? info.bandCount === 3
        ? ['-dstalpha']
        : []
      : [
          '-dstnodata',
          String(info.nodata ?? -9999),
          ...(elevation && info.dataType !== 'Float32' && info.dataType !== 'Float64'
            ? ['-ot', 'Float32']
            : []),
        ]),
    ...['-co', 'TILED=YES', '-co', 'BLOCKXSIZE=512', '-co', 'BLOCKYSIZE=512'],
    ...['-co', 'COMPRESS=ZSTD', '-co', 'ZSTD_LEVEL=1', '-co', 'BIGTIFF=YES'],
  ]
  await runGdal('gdalwarp', [...warp, source, warped], {
    owner: 'conversion',
    threads,
    signal,
    timeoutMs: CONVERT_TIMEOUT_MS,
    onProgress: (p) => onProgress(Math.round(p * 0.45)),
  })
  // The whole file is read to its end by the warp: a truncated TIFF fails above.
  const [warpedWidth, warpedHeight] = (await gdalInfoJson(warped, { owner: 'conversion', signal })).size
  // Each overview is computed once, losslessly, beside the warp (`.ovr`, which GDAL reads as the
  // file's own): the COG copies them and the reduced copy is the same pyramid from its half down,
  // so neither computes overviews again (the COG's own overview pass cost more than its full level).
  // Not for several-band non-imagery: GDAL 3.6's threaded reads fail on their `.ovr`'s extra samples.
  const pyramid = imagery || info.bandCount === 1
  if (pyramid) {
    await runGdal(
      'gdaladdo',
      [
        '-ro',
        '-r',
        'average',
        ...pyramidConfig(imagery),
        warped,
        ...overviewFactors(warpedWidth!, warpedHeight!),
      ],
      {
        owner: 'conversion',
        // One thread: GDAL 3.6's threaded overviews took twice the CPU for the same pyramid.
        threads: 1,
        signal,
        timeoutMs: CONVERT_TIMEOUT_MS,
        onProgress: (p) => onProgress(45 + Math.round(p * 0.1)),
      },
    )
  }
  const cogOptions = imagery
    ? // WEBP keeps the alpha band (transparent edges) and the browser decodes it natively.
      ['-co', 'COMPRESS=WEBP', '-co', 'QUALITY=85']
    : ['-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=YES']
  const common = [
    '-co',
    'BLOCKSIZE=512',
    '-co',
    `OVERVIEWS=${pyramid ? 'FORCE_USE_EXISTING' : 'AUTO'}`,
    '-co',
    `NUM_THREADS=${threads}`,
    '-co',
    'BIGTIFF=IF_SAFER',
  ]
  await runGdal('gdal_translate', ['-of', 'COG', ...cogOptions, ...common, warped, cog], {
    owner: 'conversion',
    threads,
    signal,
    timeoutMs: CONVERT_TIMEOUT_MS,
    onProgress: (p) => onProgress(55 + Math.round(p * 0.3)),
  })
  onProgress(86)

  // Sizes from the Web Mercator copy itself (its shape differs from the original's).
  const copy = await gdalInfoJson(cog, {
    owner: 'conversion',
    extra: elevation ? ['-approx_stats'] : [],
    signal,
  })
  const [copyWidth, copyHeight] = copy.size
  const longest = (px: number) =>
    copyWidth >= copyHeight
      ? ['-outsize', String(Math.min(px, copyWidth)), '0']
      : ['-outsize', '0', String(Math.min(px, copyHeight))]
  let minValue: number | null = null
  let maxValue: number | null = null
  const preview = path.join(dir, 'preview.png.partial')
  const size = longest(PREVIEW_PX)
  const step = { owner: 'conversion' as const, signal, timeoutMs: STEP_TIMEOUT_MS, threads }
  if (elevation) {
    // Statistics from the COG's overviews (-approx_stats above): quick, close enough for a legend.
    const band = copy.bands[0] as { minimum?: number; maximum?: number } | undefined
    minValue = band?.minimum ?? null
    maxValue = band?.maximum ?? null
    const small = path.join(dir, 'small.tif.partial')
    await runGdal('gdal_translate', ['-q', '-of', 'GTiff', ...size, '-r', 'average', cog, small], step)
    // The map's ramp over the same range the map's legend reads (minValue–maxValue).
    const range = minValue !== null && maxValue !== null ? { min: minValue, max: maxValue } : null
    await colourElevation(small, preview, range, step)
    await fs.promises.rm(small, { force: true })
  } else {
    const bands = imagery
      ? ['-b', '1', '-b', '2', '-b', '3', '-b', '4']
      : ['-b', '1', '-scale', '-ot', 'Byte']
    await runGdal(
      'gdal_translate',
      ['-q', '-of', 'PNG', ...bands, ...size, '-r', 'average', cog, preview],
      step,
    )
  }
  onProgress(92)
  const reduced = await makeReducedCopy({
    // From the lossless warp, not the WEBP copy: read faster, compressed once.
    cog: warped,
    out: path.join(dir, `${reducedCopyName('cog.tif')}.partial`),
    size: { width: copyWidth, height: copyHeight },
    kind,
    range: { min: minValue, max: maxValue },
    step,
    halfIsFirstOverview: pyramid,
  })
  for (const temporary of [warped, `${warped}.ovr`]) await fs.promises.rm(temporary, { force: true })
  onProgress(95)
  const thumbnail = path.join(dir, 'thumbnail.png.partial')
  const thumbSize = longest(THUMBNAIL_PX)
  await runGdal(
    'gdal_translate',
    ['-q', '-of', 'PNG', ...thumbSize, '-r', 'average', preview, thumbnail],
    step,
  )
  for (const partial of [cog, preview, thumbnail, reduced]) {
    const done = partial.slice(0, -'.partial'.length)
    await fs.promises.rename(partial, done)
    // To the bucket too (FILE_STORE=s3): the outbox hashes it.
    queueStoredFile(storageKeyOf(done)!, { size: (await fs.promises.stat(done)).size })
  }
  // PNG driver side files (.aux.xml) are not wanted (PAM is off, but be sure).
  for (const name of await fs.promises.readdir(dir))
    if (name.endsWith('.aux.xml')) await fs.promises.rm(path.join(dir, name), { force: true })
  return {
    cogName: rel('cog.tif'),
    previewName: rel('preview.png'),
    thumbnailName: rel('thumbnail.png'),
    minValue,
    maxValue,
  }
}

/** Whether a viewing file is kept: on disk, or safe in the bucket when evicted from the cache. */
export function isKept(key: string) {
  return fs.existsSync(path.join(storagePaths().root, key)) || storedObjectOf(key)?.state === 'safe'
}

/** Makes the reduced copy of a ready viewing copy from its COG (the copy stays ready meanwhile). */
export async function backfillReducedCopy(fileId: number, db: DbOrTx, signal: AbortSignal) {
  const view = db.select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
  const file = db.select().from(projectFiles).where(eq(projectFiles.id, fileId)).get()
  if (view?.status !== 'ready' || !view.cogName || !file || file.removedAt || !file.rasterInfo) return
  const key = reducedCopyName(view.cogName)
  if (isKept(key)) return
  const cog = await ensureLocalFile(path.join(storagePaths().root, view.cogName))
  const done = path.join(storagePaths().root, key)
  const threads = jobThreads()
  const step = { owner: 'conversion' as const, signal, timeoutMs: STEP_TIMEOUT_MS, threads }
  const [width, height] = (await gdalInfoJson(cog, { owner: 'conversion', signal })).size
  try {
    await makeReducedCopy({
      cog,
      out: `${done}.partial`,
      size: { width, height },
      kind: copyKind(file, file.rasterInfo),
      range: { min: view.minValue, max: view.maxValue },
      step,
    })
    await fs.promises.rename(`${done}.partial`, done)
  } finally {
    await fs.promises.rm(`${done}.partial`, { force: true })
  }
  queueStoredFile(storageKeyOf(done)!, { size: (await fs.promises.stat(done)).size })
}
