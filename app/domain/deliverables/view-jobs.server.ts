/**
 * The viewing copy of a raster deliverable, made by a durable background job (ADR 232).
 * The `deliverable_views` row is the job: `queued` → `processing` → `ready` | `failed`.
 * - Started from server.ts: rows left `processing` by a stopped server are queued again,
 *   then at most RASTER_JOBS run at once, each one GDAL child process at a time.
 * - A job makes, in DATA_DIR/views/<fileId>/: a Cloud Optimized GeoTIFF in Web Mercator
 *   (what Leaflet draws; WEBP with alpha for imagery, DEFLATE for elevation, overviews), a
 *   ~1600 px PNG preview (elevation in the map's colour ramp) and a ~320 px PNG thumbnail. Files
 *   are written as `.partial` and renamed when all three exist. The original stays as uploaded.
 * - GDAL's progress is the row's `progressPercent`; a failure is the row's `error` in GDAL's
 *   words, so no job is "processing" forever. A file that keeps killing the server gives up
 *   after MAX_ATTEMPTS.
 */
import fs from 'node:fs'
import path from 'node:path'
import { getEnv } from '#app/domain/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/domain/db/db.server.ts'
import { absolutePathOf, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { parseFlightPlan } from '#app/domain/projects/flight-plan.ts'
import { deliverableViews, projectFiles, projects, type ProjectFile, type RasterInfo } from '#db/schema.ts'
import { and, asc, eq } from 'drizzle-orm'

import { isRasterKind } from './deliverable.ts'
import { colourElevation } from './elevation-preview.server.ts'
import { GdalError, runGdal } from './gdal.server.ts'
import { gdalInfoJson, kindOfRaster, readRasterInfo } from './raster-info.server.ts'

const MAX_ATTEMPTS = 3
const PREVIEW_PX = 1600
const THUMBNAIL_PX = 320
/** A conversion may take long (tens of GB); it is still bounded so nothing hangs forever. */
const CONVERT_TIMEOUT_MS = 6 * 60 * 60 * 1000
const STEP_TIMEOUT_MS = 30 * 60 * 1000

/** The project's survey areas, for the overlap figure. */
function surveyAreasOf(projectId: number, db: DbOrTx) {
  const project = db
    .select({ plan: projects.polygonGeoJson })
    .from(projects)
    .where(eq(projects.id, projectId))
    .get()
  return (parseFlightPlan(project?.plan ?? null)?.areas ?? []).map((a) => ({
    coordinates: a.points.map((p) => ({ latitude: p.latitude, longitude: p.longitude })),
  }))
}

function isTiff(file: Pick<ProjectFile, 'fileType'>) {
  return file.fileType === 'image/tiff'
}

/** Reads the raster's facts and sets the kind from them (unless an admin chose one). */
async function inspectRaster(file: ProjectFile, db: DbOrTx): Promise<RasterInfo> {
  const info = await readRasterInfo(absolutePathOf(file), surveyAreasOf(file.projectId, db))
  const keepKind = file.deliverableKind && file.deliverableKind !== 'image' && file.rasterInfo
  db.update(projectFiles)
    .set({ rasterInfo: info, ...(keepKind ? {} : { deliverableKind: kindOfRaster(info) }) })
    .where(eq(projectFiles.id, file.id))
    .run()
  return info
}

/**
 * After a deliverable is stored: a TIFF is read with GDAL (kind, raster facts) and its
 * viewing copy queued. A TIFF GDAL cannot read ends `failed` with GDAL's reason at once.
 */
export async function prepareDeliverable(fileId: number, db = getDb()) {
  const file = db.select().from(projectFiles).where(eq(projectFiles.id, fileId)).get()
  if (!file || file.fileCategory !== 'processed_deliverable' || !isTiff(file)) return
  let failure: string | null = null
  try {
    await inspectRaster(file, db)
  } catch (error) {
    if (!(error instanceof GdalError)) throw error
    failure = error.message
  }
  const now = new Date()
  const values = failure
    ? { status: 'failed' as const, error: failure, progressPercent: 0, finishedAt: now }
    : { status: 'queued' as const, error: null, progressPercent: 0, finishedAt: null }
  db.insert(deliverableViews)
    .values({ fileId, ...values })
    .onConflictDoUpdate({ target: deliverableViews.fileId, set: { ...values, attempts: 0, updatedAt: now } })
    .run()
  if (!failure) viewJobs?.kick()
}

function viewDir(fileId: number) {
  return path.join(storagePaths().views, String(fileId))
}

/** Removes a deliverable's viewing copies (retention, deletion, the sweep). */
export async function removeViewCopies(fileId: number) {
  await fs.promises.rm(viewDir(fileId), { recursive: true, force: true })
}

interface Made {
  cogName: string
  previewName: string
  thumbnailName: string
  minValue: number | null
  maxValue: number | null
}

/** Makes the three copies of one raster; progress 0–100 through `onProgress`. */
async function makeViewCopies(
  file: ProjectFile,
  info: RasterInfo,
  signal: AbortSignal,
  onProgress: (percent: number) => void,
): Promise<Made> {
  const source = absolutePathOf(file)
  const dir = viewDir(file.id)
  await fs.promises.rm(dir, { recursive: true, force: true })
  await fs.promises.mkdir(dir, { recursive: true })
  const rel = (name: string) => path.posix.join('views', String(file.id), name)
  const cog = path.join(dir, 'cog.tif.partial')
  const elevation = (file.deliverableKind ?? kindOfRaster(info)) === 'elevation' && info.bandCount === 1
  const imagery = !elevation && info.dataType === 'Byte' && (info.bandCount === 3 || info.bandCount === 4)
  const warp = [
    '-t_srs',
    'EPSG:3857',
    '-of',
    'COG',
    '-wm',
    '64',
    '-multi',
    '-wo',
    'NUM_THREADS=1',
    '-overwrite',
  ]
  const cogOptions = imagery
    ? // WEBP keeps the alpha band (transparent edges) and the browser decodes it natively.
      [
        '-r',
        'bilinear',
        ...(info.bandCount === 3 ? ['-dstalpha'] : []),
        '-co',
        'COMPRESS=WEBP',
        '-co',
        'QUALITY=85',
      ]
    : [
        '-r',
        'bilinear',
        '-dstnodata',
        String(info.nodata ?? -9999),
        ...(elevation && info.dataType !== 'Float32' && info.dataType !== 'Float64'
          ? ['-ot', 'Float32']
          : []),
        '-co',
        'COMPRESS=DEFLATE',
        '-co',
        'PREDICTOR=YES',
      ]
  const common = [
    '-co',
    'BLOCKSIZE=512',
    '-co',
    'OVERVIEWS=AUTO',
    '-co',
    'NUM_THREADS=1',
    '-co',
    'BIGTIFF=IF_SAFER',
  ]
  await runGdal('gdalwarp', [...warp, ...cogOptions, ...common, source, cog], {
    signal,
    timeoutMs: CONVERT_TIMEOUT_MS,
    onProgress: (p) => onProgress(Math.round(p * 0.85)),
  })
  // The whole file is read to its end by the conversion: a truncated TIFF fails above.
  onProgress(86)

  // Sizes from the Web Mercator copy itself (its shape differs from the original's).
  const copy = await gdalInfoJson(cog, elevation ? ['-approx_stats'] : [], signal)
  const [copyWidth, copyHeight] = copy.size
  const longest = (px: number) =>
    copyWidth >= copyHeight
      ? ['-outsize', String(Math.min(px, copyWidth)), '0']
      : ['-outsize', '0', String(Math.min(px, copyHeight))]
  let minValue: number | null = null
  let maxValue: number | null = null
  const preview = path.join(dir, 'preview.png.partial')
  const size = longest(PREVIEW_PX)
  const step = { signal, timeoutMs: STEP_TIMEOUT_MS }
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
  onProgress(95)
  const thumbnail = path.join(dir, 'thumbnail.png.partial')
  const thumbSize = longest(THUMBNAIL_PX)
  await runGdal(
    'gdal_translate',
    ['-q', '-of', 'PNG', ...thumbSize, '-r', 'average', preview, thumbnail],
    step,
  )
  for (const partial of [cog, preview, thumbnail])
    await fs.promises.rename(partial, partial.slice(0, -'.partial'.length))
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
}

let viewJobs: ViewJobRunner | null = null

/** Starts the runner (server.ts): jobs a stopped server left `processing` are queued again first. */
export function startViewJobs(db = getDb(), concurrency = getEnv().RASTER_JOBS): ViewJobRunner {
  db.update(deliverableViews)
    .set({ status: 'queued', progressPercent: 0, updatedAt: new Date() })
    .where(eq(deliverableViews.status, 'processing'))
    .run()
  const running = new Map<number, { controller: AbortController; done: Promise<void> }>()
  let stopped = false
  let waiters: Array<() => void> = []

  const settleWaiters = () => {
    if (running.size || hasQueued()) return
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
      if (!file || file.removedAt)
        return finish(db, job.id, { status: 'failed', error: 'The original file is no longer stored' })
      if (job.attempts > MAX_ATTEMPTS)
        return finish(db, job.id, {
          status: 'failed',
          error: `Stopped after ${MAX_ATTEMPTS} attempts: the conversion never finished`,
        })
      const info = file.rasterInfo ?? (await inspectRaster(file, db))
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
      finish(db, job.id, { status: 'ready', progressPercent: 100, error: null, ...made })
    } catch (error) {
      if (error instanceof GdalError && error.aborted) {
        // Stopping: the job goes back to the queue and starts again at the next start.
        db.update(deliverableViews)
          .set({
            status: 'queued',
            progressPercent: 0,
            attempts: Math.max(0, job.attempts - 1),
            updatedAt: new Date(),
          })
          .where(eq(deliverableViews.id, job.id))
          .run()
        return
      }
      const message =
        error instanceof GdalError ? error.message : `Conversion failed: ${String(error)}`.slice(0, 480)
      if (!(error instanceof GdalError)) console.error('[deliverables] view job failed', error)
      await removeViewCopies(job.fileId).catch(() => {})
      finish(db, job.id, { status: 'failed', error: message })
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
        running.set(job.id, { controller, done })
      }
      settleWaiters()
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
