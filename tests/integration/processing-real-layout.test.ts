/**
 * Jobs through the runner against the simulator, whose all.zip follows the real test-mode
 * archive's layout (directory entries, tile pyramids, empty files, NodeODM's 5-byte GLB):
 * each preset completes with exactly the right skips, which only an admin reads; a job whose
 * expected model did not arrive completes but waits for an admin; no archive is left behind.
 */
import fs from 'node:fs'
import path from 'node:path'
import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import type { ProcessingRunner } from '#app/domain/processing/runner-registry.server.ts'
import { startProcessingJobs } from '#app/domain/processing/runner.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { processingJobs, projects, type ProcessingPreset } from '#db/schema.ts'
import { onlyNode, projectWithPhotos, queuedJob } from '#tests/helpers/processing-project.ts'
import {
  FAST_RUNNER,
  jobEnded,
  keptFiles,
  untilJob,
  withNodeOdmSimulator,
} from '#tests/helpers/processing-runs.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

// The deliverable pipeline plugs into the files service as the server loads it.
import '#app/domain/deliverables/pipeline.server.ts'

const FAST = { ...FAST_RUNNER, batchFiles: 5 }
const EMPTY_TILESETS = [
  { path: '3d_tiles/model/tileset.json', reason: '0 bytes: empty' },
  { path: '3d_tiles/pointcloud/tileset.json', reason: '0 bytes: empty' },
]

const simulator = withNodeOdmSimulator('real-layout', { rasterSize: 64 })
let runner: ProcessingRunner | null = null

afterEach(async () => {
  await runner?.stop()
  runner = null
  simulator.setFaults({})
})

async function runJob(
  preset: ProcessingPreset,
  options: Record<string, unknown> = {},
  { deliverWhenDone = false } = {},
) {
  await onlyNode(simulator.url)
  const { admin, project } = await projectWithPhotos(5)
  const queued = queuedJob(project.id, admin.user.id, preset)
  getDb()
    .update(processingJobs)
    .set({ options, deliverWhenDone })
    .where(eq(processingJobs.id, queued.id))
    .run()
  runner = startProcessingJobs(FAST)
  const job = await untilJob(queued.id, jobEnded)
  return { job, kept: keptFiles(job.id) }
}

describe('the real archive’s layout through the runner', () => {
  test(
    'fast-orthophoto completes: NodeODM’s 5-byte GLB and the empty OBJ and tilesets are skipped',
    { timeout: 150_000 },
    async () => {
      const { job, kept } = await runJob('fast-orthophoto')
      expect(job.error).toBeNull()
      expect(job.status).toBe('completed')
      expect(job.skipped).toEqual([
        { path: 'odm_texturing/odm_textured_model_geo.glb', reason: '5 bytes: not a glTF model' },
        { path: 'odm_texturing/odm_textured_model_geo.obj', reason: '0 bytes: empty' },
        ...EMPTY_TILESETS,
      ])
      expect(kept).toContain('Orthomosaic.tif')
      expect(kept).not.toContain('DSM - surface model.tif')
      // The archive goes as the job ends; nothing else was unpacked there.
      await untilJob(job.id, () => fs.readdirSync(jobFolder(job.id)).length === 0, { timeoutMs: 5000 })
    },
  )

  test(
    'full-3d completes with the model and the point cloud; only the empty tilesets are skipped',
    { timeout: 150_000 },
    async () => {
      const { job, kept } = await runJob('full-3d')
      expect(job.status).toBe('completed')
      expect(job.skipped).toEqual(EMPTY_TILESETS)
      expect(kept).toEqual(
        expect.arrayContaining([
          'Orthomosaic.tif',
          'DSM - surface model.tif',
          '3D model.glb',
          'Point cloud.las',
        ]),
      )
    },
  )

  test(
    'full-3d without a model (skip-3dmodel): the job completes with the rest, and is not delivered by itself: an admin reviews it',
    { timeout: 150_000 },
    async () => {
      const { job, kept } = await runJob('full-3d', { 'skip-3dmodel': true }, { deliverWhenDone: true })
      expect(job.status).toBe('completed')
      expect(job.skipped).toEqual(
        expect.arrayContaining([
          { path: 'odm_texturing/odm_textured_model_geo.glb', reason: '5 bytes: not a glTF model' },
        ]),
      )
      expect(kept).toEqual(expect.arrayContaining(['Orthomosaic.tif', 'Point cloud.las']))
      expect(kept.some((name) => /^3D model/.test(name))).toBe(false)
      const followed = await untilJob(job.id, (j) => j.followedUpAt !== null, { timeoutMs: 20_000 })
      expect(followed.followUpNote).toBe('Not delivered, needs your review: The 3D model did not arrive')
      const project = getDb().select().from(projects).where(eq(projects.id, job.projectId)).get()!
      expect(project.status).not.toBe('completed')
      // The archive went with the end of the job.
      await untilJob(job.id, () => !fs.existsSync(path.join(jobFolder(job.id), 'all.zip')), {
        timeoutMs: 5000,
      })
    },
  )
})
