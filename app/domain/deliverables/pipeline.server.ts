/**
 * The deliverable pipeline, one step after another, for a processed deliverable:
 * 1. stored — `files/project-files.server.ts` `registerProjectFile` (every upload path and the
 *    processing import's `storeProjectFile`) calls `fileStored`, which this module plugs into;
 * 2. facts — `prepareDeliverable`: GDAL reads a TIFF's kind and raster facts onto its row, and
 *    the admin's pixel limit is checked before any conversion;
 * 3. viewing copy — a `deliverable_views` row in the queue (`view-jobs.server.ts`); the job runs
 *    `makeViewingCopy`: the GDAL recipes (`view-copies.server.ts`) or the 3D copies (`threed/`);
 * 4. after the copy — the steps other concepts add with `addStepAfterViewingCopy` (annotations:
 *    "re-measure notes" on a new elevation model);
 * 5. published — a processing job's outputs are held (`withheld`) until the job's outputs are
 *    published (`processing/job-outputs.server.ts`); completing the project
 *    (`deliverables/complete-project.server.ts`) shows them to the client until the retention date.
 * A deleted or retired file leaves it: `fileRemoved` stops its job and removes its copies.
 */
import { setFileHooks } from '#app/domain/files/file-hooks.server.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import { isThreeDFile } from '#app/domain/threed/three-d-copies.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import { projectFiles, projects, type ProjectFile, type RasterInfo } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { isRasterKind } from './deliverable.ts'
import { GdalError, type GdalOwner } from './gdal.server.ts'
import { kindOfRaster, readRasterInfo } from './raster-info.server.ts'
import { tooManyPixels } from './settings.server.ts'
import { makeThreeDViewCopies, makeViewCopies, removeViewCopies } from './view-copies.server.ts'
import { reportViewFailure } from './view-failure.server.ts'
import { cancelViewJob, queueViewJob, startViewJobRunner, type ViewJobWork } from './view-jobs.server.ts'

registerStatefulModule('deliverables/pipeline')

// 1. stored (and removed): files calls these after its commit.
setFileHooks({
  stored: (fileId) => prepareDeliverable(fileId),
  removed: async (fileId) => {
    await cancelViewJob(fileId)
    await removeViewCopies(fileId)
  },
})

// 2. facts

/** Reads the raster's facts and sets the kind from them (unless an admin chose one). */
async function inspectRaster(file: ProjectFile, db: DbOrTx, owner: GdalOwner): Promise<RasterInfo> {
  const info = await withLocalFile(absolutePathOf(file), (local) =>
    readRasterInfo(
      local,
      // The project's survey areas, for the overlap figure.
      flightPlanAreas(
        db.select({ plan: projects.flightPlan }).from(projects).where(eq(projects.id, file.projectId)).get()
          ?.plan,
      ) ?? [],
      owner,
    ),
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
  if (isThreeDFile(file)) return queueViewJob(fileId, db)
  if (file.fileType !== 'image/tiff') return
  let failure: string | null = null
  try {
    const info = await inspectRaster(file, db, { accountId: file.uploadedBy ?? 0 })
    failure = tooManyPixels(info, db)
  } catch (error) {
    if (error instanceof GdalError) failure = error.message
    else if (!(error instanceof DomainError && error.status === 429)) throw error
  }
  queueViewJob(fileId, db, failure)
  // The mail must not hold up the upload's answer (it is tracked until sent).
  if (failure) void reportViewFailure(fileId, failure, db)
}

// 3. viewing copy

/** A step other concepts run on a deliverable once its viewing copy is made (a stop re-runs the job). */
export interface StepAfterViewingCopy {
  name: string
  run(fileId: number, signal: AbortSignal, db: DbOrTx): Promise<unknown>
}

const stepsAfterViewingCopy = new Map<string, StepAfterViewingCopy>()

/** Called once by the concept that owns the step, when its module loads (the same name replaces). */
export function addStepAfterViewingCopy(step: StepAfterViewingCopy) {
  stepsAfterViewingCopy.set(step.name, step)
}

const makeViewingCopy: ViewJobWork = async (file, { signal, onProgress, db }) => {
  if (isThreeDFile(file)) {
    await makeThreeDViewCopies(file, signal)
    return { made: {} }
  }
  const info = file.rasterInfo ?? (await inspectRaster(file, db, 'conversion'))
  // Checked again here: the job may have been queued before the limit was lowered.
  const tooLarge = tooManyPixels(info, db)
  if (tooLarge) return { refused: tooLarge }
  const fresh = db.select().from(projectFiles).where(eq(projectFiles.id, file.id)).get() ?? file
  if (!isRasterKind(fresh.deliverableKind ?? kindOfRaster(info)) && fresh.deliverableKind !== 'image')
    return { refused: 'Not a raster kind: no viewing copy is made' }
  const made = await makeViewCopies(fresh, info, signal, onProgress)
  await runStepsAfterViewingCopy(fresh.id, db, signal)
  return { made }
}

/**
 * 4. after the copy: a failed step is logged, the copy stays ready. Also run when a processing
 * job's outputs are published (held, a new elevation model re-measured no note).
 */
export async function runStepsAfterViewingCopy(
  fileId: number,
  db: DbOrTx = getDb(),
  signal = new AbortController().signal,
) {
  for (const step of stepsAfterViewingCopy.values())
    await step.run(fileId, signal, db).catch((error: unknown) => {
      if (signal.aborted) throw error
      console.error(`[deliverables] ${step.name} failed`, error)
    })
}

/** Starts the viewing-copy jobs (server.ts; tests), each running steps 3 and 4. */
export function startViewJobs(db: DbOrTx = getDb(), concurrency = getEnv().RASTER_JOBS) {
  return startViewJobRunner(makeViewingCopy, db, concurrency)
}
