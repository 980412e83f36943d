/**
 * The viewing copy of a raster deliverable, made by a durable background job (ADR 232).
 * The `deliverable_views` row is the job: `queued` → `processing` → `ready` | `failed`.
 * - Started from server.ts: rows left `processing` by a stopped server are queued again,
 *   then at most RASTER_JOBS run at once, each one GDAL child process at a time, through the
 *   GDAL pool (`gdal.server.ts`) the measure tools share; the warp uses the cores the job may use.
 * - A raster past the admin's pixel limit (Settings; a small file may claim 200 000² px) is
 *   refused before any conversion, in plain words. Deleting a deliverable cancels its job.
 * - A job makes, in DATA_DIR/views/<fileId>/: a Cloud Optimized GeoTIFF in Web Mercator
 *   (what Leaflet draws; WEBP with alpha for imagery, DEFLATE for elevation, overviews), a
 *   ~1600 px PNG preview (elevation in the map's colour ramp), a ~320 px PNG thumbnail and the
 *   view-only links' reduced copy (`cog.view-only.tif`: half the resolution, an elevation model as
 *   colours). Files are written as `.partial` and renamed when all exist. The original stays as uploaded.
 * - GDAL's progress is the row's `progressPercent`; a failure is the row's `error` in GDAL's
 *   words, so no job is "processing" forever. A file that keeps killing the server gives up
 *   after MAX_ATTEMPTS.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { remeasureNotesOn } from '#app/domain/annotations/annotation-remeasure.server.ts'
import { absolutePathOf, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { flightPlanView } from '#app/domain/flight-plan/flight-plan.ts'
import { registerStatefulModule } from '#app/domain/process/stateful-modules.server.ts'
import { ModelCopyError } from '#app/domain/threed/model-copy.server.ts'
import { PointCloudError } from '#app/domain/threed/point-cloud.server.ts'
import { isThreeDFile, makeThreeDCopies } from '#app/domain/threed/three-d-copies.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { ensureLocalFile } from '#app/lib/storage/file-cache.server.ts'
import {
  queueObjectDeletesUnder,
  queueStoredFile,
  storageKeyOf,
  storedObjectOf,
} from '#app/lib/storage/outbox.server.ts'
import { deliverableViews, projectFiles, projects, type ProjectFile, type RasterInfo } from '#db/schema.ts'
import { and, asc, eq, isNotNull } from 'drizzle-orm'

import { isRasterKind } from './deliverable.ts'
import { colourElevation } from './elevation-preview.server.ts'
import { gdalColourFile } from './elevation-ramp.ts'
import { GdalError, runGdal, type GdalOwner } from './gdal.server.ts'
import { gdalInfoJson, kindOfRaster, readRasterInfo } from './raster-info.server.ts'
import { tooManyPixels } from './settings.server.ts'
import { reportViewFailure } from './view-failure.server.ts'

registerStatefulModule('deliverables/view-jobs')

const MAX_ATTEMPTS = 3
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

/** The cores one job may use: the machine's, shared by the RASTER_JOBS that may run at once. */
function jobThreads() {
  return Math.max(1, Math.floor(os.availableParallelism() / getEnv().RASTER_JOBS))
}

/** The project's survey areas, for the overlap figure. */
function surveyAreasOf(projectId: number, db: DbOrTx) {
  const project = db
    .select({ plan: projects.flightPlan })
    .from(projects)
    .where(eq(projects.id, projectId))
    .get()
  return (flightPlanView(project?.plan ?? null)?.areas ?? []).map((a) => ({
    coordinates: a.points.map((p) => ({ latitude: p.latitude, longitude: p.longitude })),
  }))
}

function isTiff(file: Pick<ProjectFile, 'fileType'>) {
  return file.fileType === 'image/tiff'
}

/** Reads the raster's facts and sets the kind from them (unless an admin chose one). */
async function inspectRaster(file: ProjectFile, db: DbOrTx, owner: GdalOwner): Promise<RasterInfo> {
  const info = await readRasterInfo(
    await ensureLocalFile(absolutePathOf(file)),
    surveyAreasOf(file.projectId, db),
    owner,
  )
  const keepKind = file.deliverableKind && file.deliverableKind !== 'image' && file.rasterInfo
  db.update(projectFiles)
    .set({ rasterInfo: info, ...(keepKind ? {} : { deliverableKind: kindOfRaster(info) }) })
    .where(eq(projectFiles.id, file.id))
    .run()
  return info
}

/**
 * After a deliverable is stored: a TIFF is read with GDAL (kind, raster facts) and its
 * viewing copy queued. A TIFF GDAL cannot read, or one past the pixel limit, ends `failed`
 * with the reason at once. A busy GDAL pool leaves the reading to the job.
 */
export async function prepareDeliverable(fileId: number, db = getDb()) {
  const file = db.select().from(projectFiles).where(eq(projectFiles.id, fileId)).get()
  if (!file || file.fileCategory !== 'processed_deliverable') return
  if (isThreeDFile(file)) return queueView(fileId, db)
  if (!isTiff(file)) return
  let failure: string | null = null
  try {
    const info = await inspectRaster(file, db, { accountId: file.uploadedBy ?? 0 })
    failure = tooManyPixels(info, db)
  } catch (error) {
    if (error instanceof GdalError) failure = error.message
    else if (!(error instanceof DomainError && error.status === 429)) throw error
  }
  const now = new Date()
  const values = failure
    ? { status: 'failed' as const, error: failure, progressPercent: 0, finishedAt: now }
    : { status: 'queued' as const, error: null, progressPercent: 0, finishedAt: null }
  db.insert(deliverableViews)
    .values({ fileId, ...values })
    .onConflictDoUpdate({ target: deliverableViews.fileId, set: { ...values, attempts: 0, updatedAt: now } })
    .run()
  // The mail must not hold up the upload's answer (it is tracked until sent).
  if (failure) void reportViewFailure(fileId, failure, db)
  else viewJobs?.kick()
}

/** Queues (again) the viewing copy of a 3D deliverable (its kind may have been set after upload). */
function queueView(fileId: number, db: DbOrTx = getDb()) {
  const values = { status: 'queued' as const, error: null, progressPercent: 0, finishedAt: null }
  db.insert(deliverableViews)
    .values({ fileId, ...values })
    .onConflictDoUpdate({
      target: deliverableViews.fileId,
      set: { ...values, attempts: 0, updatedAt: new Date() },
    })
    .run()
  viewJobs?.kick()
}

function viewDir(fileId: number) {
  return path.join(storagePaths().views, String(fileId))
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
}: {
  cog: string
  /** The file to write (the job writes a `.partial` and renames it with the others). */
  out: string
  size: { width: number; height: number }
  kind: 'imagery' | 'elevation' | 'other'
  range: { min: number | null; max: number | null }
  step: { owner: GdalOwner; signal?: AbortSignal; timeoutMs: number; threads?: number }
}) {
  const half = [
    '-outsize',
    String(Math.max(1, Math.round(size.width / 2))),
    String(Math.max(1, Math.round(size.height / 2))),
    '-r',
    'average',
  ]
  const cogOut = [
    ...['-of', 'COG', '-co', 'BLOCKSIZE=512', '-co', 'OVERVIEWS=AUTO', '-co', 'BIGTIFF=IF_SAFER'],
    ...['-co', `NUM_THREADS=${step.threads ?? 1}`],
  ]
  const webp = ['-co', 'COMPRESS=WEBP', '-co', 'QUALITY=85']
  if (kind !== 'elevation') {
    const compress = kind === 'imagery' ? webp : ['-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=YES']
    await runGdal('gdal_translate', ['-q', ...half, ...cogOut, ...compress, cog, out], step)
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
  await runGdal('gdal_translate', ['-q', ...cogOut, ...webp, colourVrt, out], step)
  for (const temporary of [halfVrt, colourVrt, ramp]) await fs.promises.rm(temporary, { force: true })
  return out
}

/** How a raster is drawn: a one-band elevation model in colours, 8-bit RGB(A) imagery, or anything else as grey. */
function copyKind(file: ProjectFile, info: RasterInfo): 'imagery' | 'elevation' | 'other' {
  if ((file.deliverableKind ?? kindOfRaster(info)) === 'elevation' && info.bandCount === 1) return 'elevation'
  return info.dataType === 'Byte' && (info.bandCount === 3 || info.bandCount === 4) ? 'imagery' : 'other'
}

/** Makes the copies of one raster; progress 0–100 through `onProgress`. */
async function makeViewCopies(
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
    onProgress: (p) => onProgress(Math.round(p * 0.5)),
  })
  // The whole file is read to its end by the warp: a truncated TIFF fails above.
  const cogOptions = imagery
    ? // WEBP keeps the alpha band (transparent edges) and the browser decodes it natively.
      ['-co', 'COMPRESS=WEBP', '-co', 'QUALITY=85']
    : ['-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=YES']
  const common = [
    '-co',
    'BLOCKSIZE=512',
    '-co',
    'OVERVIEWS=AUTO',
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
    onProgress: (p) => onProgress(50 + Math.round(p * 0.35)),
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
  })
  await fs.promises.rm(warped, { force: true })
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
function isKept(key: string) {
  return fs.existsSync(path.join(storagePaths().root, key)) || storedObjectOf(key)?.state === 'safe'
}

/** Ready raster copies without a reduced copy (made before it existed), oldest first. */
function missingReducedCopies(db: DbOrTx) {
  return db
    .select({ fileId: deliverableViews.fileId, cogName: deliverableViews.cogName })
    .from(deliverableViews)
    .where(and(eq(deliverableViews.status, 'ready'), isNotNull(deliverableViews.cogName)))
    .orderBy(asc(deliverableViews.id))
    .all()
    .filter((row) => !isKept(reducedCopyName(row.cogName!)))
    .map((row) => row.fileId)
}

/** Makes the reduced copy of a ready viewing copy from its COG (the copy stays ready meanwhile). */
async function backfillReducedCopy(fileId: number, db: DbOrTx, signal: AbortSignal) {
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

/** Claims the oldest queued job (one transaction), or null. */
function claimNext(db: DbOrTx) {
  return db.transaction((tx) => {
    const next = tx
      .select()
      .from(deliverableViews)
      .where(eq(deliverableViews.status, 'queued'))
      .orderBy(asc(deliverableViews.updatedAt), asc(deliverableViews.id))
      .get()
    if (!next) return null
    return tx
      .update(deliverableViews)
      .set({
        status: 'processing',
        attempts: next.attempts + 1,
        progressPercent: 0,
        error: null,
        startedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(deliverableViews.id, next.id), eq(deliverableViews.status, 'queued')))
      .returning()
      .get()
  })
}

/** A job stopped by the server's stop goes back to the queue, its attempt not counted. */
function requeue(db: DbOrTx, job: { id: number; attempts: number }) {
  db.update(deliverableViews)
    .set({
      status: 'queued',
      progressPercent: 0,
      attempts: Math.max(0, job.attempts - 1),
      updatedAt: new Date(),
    })
    .where(eq(deliverableViews.id, job.id))
    .run()
}

function finish(db: DbOrTx, id: number, values: Partial<typeof deliverableViews.$inferInsert>) {
  db.update(deliverableViews)
    .set({ ...values, finishedAt: new Date(), updatedAt: new Date() })
    .where(eq(deliverableViews.id, id))
    .run()
}

export interface ViewJobRunner {
  /** Looks for queued jobs now (called after a deliverable is stored). */
  kick(): void
  /** Resolves when no job is running and none is queued (tests, the bench). */
  idle(): Promise<void>
  /** Stops the running GDAL children and puts their jobs back in the queue. */
  stop(): Promise<void>
  /** Stops a file's running conversion for good (its GDAL child is killed); resolves when it has ended. */
  cancel(fileId: number): Promise<void>
  /** A view-only read found no reduced copy: make it next (once per process). */
  requestReducedCopy(fileId: number): void
}

let viewJobs: ViewJobRunner | null = null

/** The abort reason of a job whose file is gone (as opposed to a server stopping). */
const CANCELLED = 'cancelled'
const NO_LONGER_STORED = 'The original file is no longer stored'

/** A deleted deliverable's conversion stops now (deletion, retention); a queued one fails when claimed. */
export async function cancelViewJob(fileId: number) {
  await viewJobs?.cancel(fileId)
}

/** A view-only link asked for a reduced copy that is not there (a copy older than reduced copies). */
export function requestReducedCopy(fileId: number) {
  viewJobs?.requestReducedCopy(fileId)
}

/**
 * Starts the runner (server.ts): jobs a stopped server left `processing` are queued again first;
 * ready copies made before reduced copies existed get theirs, one at a time when the queue is empty.
 */
export function startViewJobs(db = getDb(), concurrency = getEnv().RASTER_JOBS): ViewJobRunner {
  db.update(deliverableViews)
    .set({ status: 'queued', progressPercent: 0, updatedAt: new Date() })
    .where(eq(deliverableViews.status, 'processing'))
    .run()
  const running = new Map<number, { fileId: number; controller: AbortController; done: Promise<void> }>()
  // Reduced copies to make, one at a time after the queue; each tried once per process (a restart resumes).
  const backfill = missingReducedCopies(db)
  const backfillTried = new Set<number>()
  let stopped = false
  let waiters: Array<() => void> = []

  const settleWaiters = () => {
    if (running.size || backfill.length || hasQueued()) return
    const ready = waiters
    waiters = []
    for (const resolve of ready) resolve()
  }
  const hasQueued = () =>
    Boolean(
      db
        .select({ id: deliverableViews.id })
        .from(deliverableViews)
        .where(eq(deliverableViews.status, 'queued'))
        .get(),
    )

  async function run(job: NonNullable<ReturnType<typeof claimNext>>, controller: AbortController) {
    const file = db.select().from(projectFiles).where(eq(projectFiles.id, job.fileId)).get()
    try {
      if (!file || file.removedAt) return finish(db, job.id, { status: 'failed', error: NO_LONGER_STORED })
      if (job.attempts > MAX_ATTEMPTS)
        return finish(db, job.id, {
          status: 'failed',
          error: `Stopped after ${MAX_ATTEMPTS} attempts: the conversion never finished`,
        })
      if (isThreeDFile(file)) {
        const dir = viewDir(file.id)
        await fs.promises.rm(dir, { recursive: true, force: true })
        await fs.promises.mkdir(dir, { recursive: true })
        await makeThreeDCopies(file, dir, controller.signal)
        return finish(db, job.id, { status: 'ready', progressPercent: 100, error: null })
      }
      const info = file.rasterInfo ?? (await inspectRaster(file, db, 'conversion'))
      // Checked again here: the job may have been queued before the limit was lowered.
      const tooLarge = tooManyPixels(info, db)
      if (tooLarge) return finish(db, job.id, { status: 'failed', error: tooLarge })
      const fresh = db.select().from(projectFiles).where(eq(projectFiles.id, file.id)).get() ?? file
      if (!isRasterKind(fresh.deliverableKind ?? kindOfRaster(info)) && fresh.deliverableKind !== 'image') {
        return finish(db, job.id, { status: 'failed', error: 'Not a raster kind: no viewing copy is made' })
      }
      let lastWrite = 0
      const made = await makeViewCopies(fresh, info, controller.signal, (percent) => {
        const now = Date.now()
        if (now - lastWrite < 500 && percent < 100) return
        lastWrite = now
        db.update(deliverableViews)
          .set({ progressPercent: percent })
          .where(eq(deliverableViews.id, job.id))
          .run()
      })
      // A new elevation model: the notes on it are measured again (a stop re-runs the job).
      await remeasureNotesOn(fresh.id, controller.signal, db).catch((error: unknown) => {
        if (controller.signal.aborted) throw error
        console.error('[deliverables] notes not measured again', error)
      })
      finish(db, job.id, { status: 'ready', progressPercent: 100, error: null, ...made })
    } catch (error) {
      if (controller.signal.aborted && !(error instanceof GdalError)) {
        // A 3D copy stopped by a cancel or a stop: as a GDAL child's abort below.
        await removeViewCopies(job.fileId).catch(() => {})
        if (controller.signal.reason === CANCELLED)
          return finish(db, job.id, { status: 'failed', error: NO_LONGER_STORED })
        return requeue(db, job)
      }
      if (error instanceof GdalError && error.aborted && controller.signal.reason === CANCELLED) {
        // The deliverable was deleted (or removed by retention): nothing to convert any more.
        await removeViewCopies(job.fileId).catch(() => {})
        return finish(db, job.id, { status: 'failed', error: NO_LONGER_STORED })
      }
      if (error instanceof GdalError && error.aborted) {
        // Stopping: the job goes back to the queue and starts again at the next start.
        return requeue(db, job)
      }
      const known =
        error instanceof GdalError || error instanceof PointCloudError || error instanceof ModelCopyError
      const message = known
        ? error.message.slice(0, 480)
        : `Conversion failed: ${String(error)}`.slice(0, 480)
      if (!known) console.error('[deliverables] view job failed', error)
      await removeViewCopies(job.fileId).catch(() => {})
      finish(db, job.id, { status: 'failed', error: message })
      await reportViewFailure(job.fileId, message, db)
    }
  }

  const runner: ViewJobRunner = {
    kick() {
      while (!stopped && running.size < concurrency) {
        const job = claimNext(db)
        if (!job) break
        const controller = new AbortController()
        const done = run(job, controller)
          .catch((error) => console.error('[deliverables] view job crashed', error))
          .finally(() => {
            running.delete(job.id)
            runner.kick()
            settleWaiters()
          })
        running.set(job.id, { fileId: job.fileId, controller, done })
      }
      // Only when nothing is queued: a new upload's copy comes first.
      if (!stopped && running.size < concurrency && backfill.length && !hasQueued()) {
        const fileId = backfill.shift()!
        backfillTried.add(fileId)
        const controller = new AbortController()
        const key = -fileId
        const done = backfillReducedCopy(fileId, db, controller.signal)
          .catch((error) => {
            if (!controller.signal.aborted)
              console.error(`[deliverables] reduced copy of ${fileId} failed`, error)
          })
          .finally(() => {
            running.delete(key)
            runner.kick()
            settleWaiters()
          })
        running.set(key, { fileId, controller, done })
      }
      settleWaiters()
    },
    requestReducedCopy(fileId) {
      if (stopped || backfillTried.has(fileId)) return
      const index = backfill.indexOf(fileId)
      if (index >= 0) backfill.splice(index, 1)
      backfill.unshift(fileId)
      runner.kick()
    },
    async cancel(fileId) {
      const jobs = [...running.values()].filter((r) => r.fileId === fileId)
      for (const { controller } of jobs) controller.abort(CANCELLED)
      await Promise.all(jobs.map((r) => r.done))
    },
    idle() {
      return new Promise((resolve) => {
        waiters.push(resolve)
        settleWaiters()
      })
    },
    async stop() {
      stopped = true
      if (viewJobs === runner) viewJobs = null
      for (const { controller } of running.values()) controller.abort()
      await Promise.all([...running.values()].map((r) => r.done))
      const ready = waiters
      waiters = []
      for (const resolve of ready) resolve()
    },
  }
  viewJobs = runner
  runner.kick()
  return runner
}
