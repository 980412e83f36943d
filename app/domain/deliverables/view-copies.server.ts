/**
 * The GDAL recipes of a raster deliverable's viewing copy (the queue that runs them is
 * `view-jobs.server.ts`). In DATA_DIR/views/<fileId>/: a Cloud Optimized GeoTIFF in the raster's
 * own CRS (no warp: the browser reprojects each map tile with the CRS recorded in the COG's
 * metadata, `CRS_ITEM`; JPEG with a mask for imagery, DEFLATE for elevation, overviews), a
 * ~1600 px PNG preview (elevation in the map's colour ramp), a ~320 px PNG thumbnail and the
 * view-only links' reduced copy (`cog.view-only.tif`: half the resolution, an elevation model as
 * colours). Files are written as `.partial` and renamed when all exist. The original stays as
 * uploaded. One COG pass computes every overview; the previews and the reduced copy read them.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { absolutePathOf, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { makeThreeDCopies } from '#app/domain/threed/three-d-copies.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import type { DbOrTx } from '#app/lib/db/db.server.ts'
import { isStoredFile, withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import { queueObjectDeletesUnder, queueStoredFile, storageKeyOf } from '#app/lib/storage/outbox.server.ts'
import { deliverableViews, projectFiles, type ProjectFile, type RasterInfo } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { colourElevation } from './elevation-preview.server.ts'
import { gdalColourFile } from './elevation-ramp.ts'
import { runGdal, type GdalOwner } from './gdal.server.ts'
import { gdalInfoJson, kindOfRaster, type GdalInfo } from './raster-info.server.ts'

/** Where the view-only links' copy of a COG is kept: beside it (see `makeReducedCopy`). */
export function reducedCopyName(cogName: string) {
  return `${cogName.replace(/\.tif$/, '')}.view-only.tif`
}
const PREVIEW_PX = 1600
const THUMBNAIL_PX = 320
/** A conversion may take long (tens of GB); it is still bounded so nothing hangs forever. */
const CONVERT_TIMEOUT_MS = 6 * 60 * 60 * 1000
const STEP_TIMEOUT_MS = 30 * 60 * 1000
/** Overviews by factors 2, 4, 8, … until one fits in a 512 px block: at least one (the half a reduced copy is). */
function overviewCount(width: number, height: number) {
  let count = 1
  while (Math.max(width, height) / 2 ** count > 512) count++
  return count
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
  imageryCompression = 'WEBP',
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
  /** How imagery is encoded: JPEG (its mask kept) as the COG since the copy stays in its CRS, WEBP (RGBA) before. */
  imageryCompression?: 'WEBP' | 'JPEG'
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
    const imagery = imageryCompression === 'JPEG' ? ['-co', 'COMPRESS=JPEG', '-co', 'QUALITY=85'] : webp
    const compress = kind === 'imagery' ? imagery : ['-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=YES']
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
  // gdaldem keeps no metadata: the CRS the browser reprojects with is recorded again.
  const crs = await crsMetadata(cog, step)
  await runGdal('gdal_translate', ['-q', ...cogOut('AUTO'), ...webp, ...crs, colourVrt, out], step)
  for (const temporary of [halfVrt, colourVrt, ramp]) await fs.promises.rm(temporary, { force: true })
  return out
}

/** How a raster is drawn: a one-band elevation model in colours, 8-bit RGB(A) imagery, or anything else as grey. */
function copyKind(file: ProjectFile, info: RasterInfo): 'imagery' | 'elevation' | 'other' {
  if ((file.deliverableKind ?? kindOfRaster(info)) === 'elevation' && info.bandCount === 1) return 'elevation'
  return info.dataType === 'Byte' && (info.bandCount === 3 || info.bandCount === 4) ? 'imagery' : 'other'
}

/** The metadata item of a viewing COG holding its CRS as GDAL's PROJ.4 text: what the browser reprojects with. */
export const CRS_ITEM = 'KESTREL_PROJ4'

/** `-mo` options recording `file`'s CRS for the browser, as GDAL states it (none when it has no CRS). */
async function crsMetadata(file: string, step: { owner: GdalOwner; signal?: AbortSignal }) {
  const text = await runGdal('gdalsrsinfo', ['-o', 'proj4', file], { ...step, timeoutMs: 60_000 }).catch(
    () => '',
  )
  const proj4 = text.trim().replace(/^'|'$/g, '').trim()
  return proj4.startsWith('+') ? ['-mo', `${CRS_ITEM}=${proj4}`] : []
}

/** The overview (0 = the first) `gdal_translate -oo OVERVIEW_LEVEL` reads for an image of `px` on its longest side. */
function overviewFor(info: GdalInfo, px: number) {
  const sizes = (
    (info.bands[0] as { overviews?: { size: [number, number] }[] } | undefined)?.overviews ?? []
  ).map((o) => o.size)
  let level = -1
  for (const [i, [w, h]] of sizes.entries()) if (Math.max(w, h) >= px) level = i
  const size = level < 0 ? info.size : sizes[level]!
  return { options: level < 0 ? [] : ['-oo', `OVERVIEW_LEVEL=${level}`], size }
}

/** Makes the copies of one raster (read through the store); progress 0–100 through `onProgress`. */
export function makeViewCopies(
  file: ProjectFile,
  info: RasterInfo,
  signal: AbortSignal,
  onProgress: (percent: number) => void,
): Promise<Made> {
  return withLocalFile(absolutePathOf(file), (source) => copiesOf(source, file, info, signal, onProgress))
}

async function copiesOf(
  source: string,
  file: ProjectFile,
  info: RasterInfo,
  signal: AbortSignal,
  onProgress: (percent: number) => void,
): Promise<Made> {
  const dir = viewDir(file.id)
  await fs.promises.rm(dir, { recursive: true, force: true })
  await fs.promises.mkdir(dir, { recursive: true })
  const rel = (name: string) => path.posix.join('views', String(file.id), name)
  const cog = path.join(dir, 'cog.tif.partial')
  const kind = copyKind(file, info)
  const [elevation, imagery] = [kind === 'elevation', kind === 'imagery']
  const threads = jobThreads()
  const crs = await crsMetadata(source, { owner: 'conversion', signal })
  // No warp: the COG keeps the raster's own CRS and grid (the browser reprojects each map tile),
  // so the job is one COG pass, its overviews (AVERAGE) computed once by the COG driver.
  // Imagery as JPEG (YCbCr, half WEBP's CPU, so the copy costs about a plain COG) with an internal
  // mask where the source has transparent edges (alpha or nodata); anything else lossless.
  const mask =
    info.bandCount === 4 ? ['-mask', '4'] : info.nodata != null ? ['-mask', 'mask', '-a_nodata', 'none'] : []
  const cogOptions = imagery
    ? ['-b', '1', '-b', '2', '-b', '3', ...mask, '-co', 'COMPRESS=JPEG', '-co', 'QUALITY=85']
    : ['-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=YES']
  const common = [
    ...[
      '-co',
      'BLOCKSIZE=512',
      '-co',
      `OVERVIEW_COUNT=${overviewCount(info.widthPx, info.heightPx)}`,
      '-co',
      'OVERVIEW_RESAMPLING=AVERAGE',
    ],
    ...['-co', `NUM_THREADS=${threads}`, '-co', 'BIGTIFF=IF_SAFER'],
  ]
  await runGdal('gdal_translate', ['-of', 'COG', ...cogOptions, ...common, ...crs, source, cog], {
    owner: 'conversion',
    threads,
    signal,
    timeoutMs: CONVERT_TIMEOUT_MS,
    onProgress: (p) => onProgress(Math.round(p * 0.8)),
  })
  // The whole file is read to its end above: a truncated TIFF fails there.
  onProgress(80)

  const copy = await gdalInfoJson(cog, {
    owner: 'conversion',
    extra: elevation ? ['-approx_stats'] : [],
    signal,
  })
  const [copyWidth, copyHeight] = copy.size
  // Previews are read from the smallest overview still as large, not from the full level.
  const sized = (px: number) => {
    const { options, size } = overviewFor(copy, px)
    const [w, h] = size
    return [
      ...options,
      ...(w! >= h!
        ? ['-outsize', String(Math.min(px, w!)), '0']
        : ['-outsize', '0', String(Math.min(px, h!))]),
    ]
  }
  let minValue: number | null = null
  let maxValue: number | null = null
  const preview = path.join(dir, 'preview.png.partial')
  const size = sized(PREVIEW_PX)
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
      ? ['-b', '1', '-b', '2', '-b', '3', ...(mask.length ? ['-b', 'mask'] : [])]
      : ['-b', '1', '-scale', '-ot', 'Byte']
    await runGdal(
      'gdal_translate',
      ['-q', '-of', 'PNG', '-co', 'ZLEVEL=3', ...bands, ...size, '-r', 'average', cog, preview],
      step,
    )
  }
  onProgress(88)
  const firstOverview = (copy.bands[0] as { overviews?: { size: [number, number] }[] }).overviews?.[0]?.size
  const reduced = await makeReducedCopy({
    cog,
    out: path.join(dir, `${reducedCopyName('cog.tif')}.partial`),
    size: { width: copyWidth!, height: copyHeight! },
    kind,
    range: { min: minValue, max: maxValue },
    step,
    imageryCompression: imagery ? 'JPEG' : 'WEBP',
    // The COG driver's first overview is its half: read it and its overviews, computing none.
    halfIsFirstOverview: firstOverview?.[0] === Math.ceil(copyWidth! / 2),
  })
  onProgress(95)
  const thumbnail = path.join(dir, 'thumbnail.png.partial')
  const thumbSize =
    copyWidth! >= copyHeight!
      ? ['-outsize', String(Math.min(THUMBNAIL_PX, copyWidth!)), '0']
      : ['-outsize', '0', String(Math.min(THUMBNAIL_PX, copyHeight!))]
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
  return isStoredFile(path.join(storagePaths().root, key))
}

/** Makes the reduced copy of a ready viewing copy from its COG (the copy stays ready meanwhile). */
export async function backfillReducedCopy(fileId: number, db: DbOrTx, signal: AbortSignal) {
  const view = db.select().from(deliverableViews).where(eq(deliverableViews.fileId, fileId)).get()
  const file = db.select().from(projectFiles).where(eq(projectFiles.id, fileId)).get()
  if (view?.status !== 'ready' || !view.cogName || !file || file.removedAt || !file.rasterInfo) return
  const key = reducedCopyName(view.cogName)
  if (isKept(key)) return
  const kind = copyKind(file, file.rasterInfo)
  await withLocalFile(path.join(storagePaths().root, view.cogName), (cog) =>
    makeReducedFrom(cog, path.join(storagePaths().root, key), kind, view, signal),
  )
}

async function makeReducedFrom(
  cog: string,
  done: string,
  kind: ReturnType<typeof copyKind>,
  view: { minValue: number | null; maxValue: number | null },
  signal: AbortSignal,
) {
  const threads = jobThreads()
  const step = { owner: 'conversion' as const, signal, timeoutMs: STEP_TIMEOUT_MS, threads }
  const cogInfo = await gdalInfoJson(cog, { owner: 'conversion', signal })
  const [width, height] = cogInfo.size
  const compression = cogInfo.metadata?.IMAGE_STRUCTURE?.COMPRESSION
  try {
    await makeReducedCopy({
      cog,
      out: `${done}.partial`,
      size: { width, height },
      kind,
      range: { min: view.minValue, max: view.maxValue },
      step,
      imageryCompression: compression?.includes('JPEG') ? 'JPEG' : 'WEBP',
    })
    await fs.promises.rename(`${done}.partial`, done)
  } finally {
    await fs.promises.rm(`${done}.partial`, { force: true })
  }
  queueStoredFile(storageKeyOf(done)!, { size: (await fs.promises.stat(done)).size })
}
