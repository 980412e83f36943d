/**
 * Opt-in: jobs against OpenDroneMap's own NodeODM, skipped unless NODEODM_REAL_URL is set
 * (NODEODM_REAL_TOKEN if it has one), like the simulator's conformance check. In test mode it
 * needs no ODM and replays OpenDroneMap's sample archive for every task:
 *
 *   node index.js --port 3999 --test --test_seconds 3      # in a copy of OpenDroneMap/NodeODM
 *   NODEODM_REAL_URL=http://127.0.0.1:3999 npx vitest run tests/integration/processing-real-nodeodm.test.ts
 *
 * Kestrel's client sends the photos, follows the task and downloads its real all.zip; the
 * listing must be the one recorded in real-all-zip.tsv and the import must keep and skip
 * exactly what the fixture test (import-real-layout.server.test.ts) expects: every preset
 * completes; full-3d without the model the sample lacks, so it waits for an admin's review.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openZip, readDirectory } from '#app/domain/processing/archive-reader.server.ts'
import {
  commitTask,
  downloadAllZip,
  getTaskInfo,
  initTask,
  removeTask,
  TASK_STATUS,
  uploadFiles,
} from '#app/domain/processing/nodeodm-client.server.ts'
import type { ProcessingRunner } from '#app/domain/processing/runner-registry.server.ts'
import { startProcessingJobs } from '#app/domain/processing/runner.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import {
  processingJobs,
  processingNodes,
  projectFiles,
  type ProcessingJob,
  type ProcessingPreset,
} from '#db/schema.ts'
import { geotaggedJpeg } from '#tests/helpers/geotagged-jpeg.ts'
import { onlyNode, projectWithPhotos, queuedJob } from '#tests/helpers/processing-project.ts'
import { REAL_SKIPS } from '#tests/helpers/real-archive.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

import { realLayout } from '../../server/nodeodm-simulator/real-layout.ts'
// The deliverable pipeline plugs into the files service as the server loads it.
import '#app/domain/deliverables/pipeline.server.ts'

const REAL_URL = process.env.NODEODM_REAL_URL
const REAL_TOKEN = process.env.NODEODM_REAL_TOKEN
const FAST = { pollMs: 200, tickMs: 50, retryBaseMs: 50, batchFiles: 5, webhookBase: 'http://127.0.0.1:9' }
const KEPT = [
  'Orthomosaic.tif',
  'DSM - surface model.tif',
  'DTM - terrain model.tif',
  'Point cloud.laz',
  'Camera positions.geojson',
]

let runner: ProcessingRunner | null = null
afterEach(async () => {
  await runner?.stop()
  runner = null
})

async function until(id: number, done: (job: ProcessingJob) => boolean, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const job = getDb().select().from(processingJobs).where(eq(processingJobs.id, id)).get()!
    if (done(job)) return job
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} (${job.stage}; ${job.error})`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function runJob(preset: ProcessingPreset, { deliverWhenDone = false } = {}) {
  const node = await onlyNode(REAL_URL!)
  if (REAL_TOKEN)
    getDb().update(processingNodes).set({ token: REAL_TOKEN }).where(eq(processingNodes.id, node.id)).run()
  const { admin, project } = await projectWithPhotos(5)
  const queued = queuedJob(project.id, admin.user.id, preset)
  getDb().update(processingJobs).set({ deliverWhenDone }).where(eq(processingJobs.id, queued.id)).run()
  runner = startProcessingJobs(FAST)
  const job = await until(queued.id, (j) => ['completed', 'failed', 'canceled'].includes(j.status))
  const kept = getDb()
    .select()
    .from(projectFiles)
    .where(eq(projectFiles.processingJobId, job.id))
    .all()
    .map((f) => f.originalName)
  return { job, kept }
}

/** A task made, sent two photos, committed and followed with Kestrel's client; its all.zip downloaded. */
async function archiveOfNewTask() {
  const node = { url: REAL_URL!, token: REAL_TOKEN ?? null }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-real-zip-'))
  const photos = [0, 1].map((i) => {
    const file = path.join(dir, `DJI_000${i}.JPG`)
    fs.writeFileSync(file, geotaggedJpeg({ latitude: -33.92 + i * 0.0002, longitude: 18.42, altitudeM: 80 }))
    return { path: file, name: path.basename(file), size: fs.statSync(file).size }
  })
  const uuid = await initTask(node, {
    name: 'Kestrel listing check',
    options: [{ name: 'dsm', value: true }],
  })
  await uploadFiles(node, uuid, photos)
  await commitTask(node, uuid)
  for (let i = 0; (await getTaskInfo(node, uuid)).status.code !== TASK_STATUS.completed; i++) {
    if (i > 600) throw new Error('the real node never completed the task')
    await new Promise((r) => setTimeout(r, 200))
  }
  const file = path.join(dir, 'all.zip')
  await downloadAllZip(node, uuid, file, 1024 ** 3)
  await removeTask(node, uuid)
  return file
}

describe.skipIf(!REAL_URL)('OpenDroneMap’s NodeODM in test mode as the node', () => {
  test('its all.zip is the recorded listing, entry for entry', { timeout: 180_000 }, async () => {
    const { job } = await runJob('standard')
    expect(job.status).toBe('completed')
    // The task is removed once imported: a second one, driven by the client alone, gives its archive.
    const file = await archiveOfNewTask()
    const zip = await openZip(file)
    const entries = await readDirectory(zip, { maxEntries: 1000, maxUnzippedBytes: 1024 ** 3 })
    zip.close()
    const listing = entries.map((e) => ({ name: e.fileName, size: e.uncompressedSize }))
    expect(listing.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [...realLayout()].sort((a, b) => a.name.localeCompare(b.name)),
    )
  })

  for (const preset of ['fast-orthophoto', 'standard', 'full-3d'] as const) {
    test(
      `${preset}: completes with the sample’s products, the broken ones skipped`,
      { timeout: 180_000 },
      async () => {
        const { job, kept } = await runJob(preset)
        expect(job.error).toBeNull()
        expect(job.status).toBe('completed')
        expect(job.skipped).toEqual(REAL_SKIPS)
        // Registered in the preset's order (what it needs first): the same files.
        expect([...kept].sort()).toEqual([...KEPT].sort())
      },
    )
  }

  test(
    'full-3d delivering by itself: the sample has no readable model, so an admin reviews it first',
    { timeout: 180_000 },
    async () => {
      const { job } = await runJob('full-3d', { deliverWhenDone: true })
      expect(job.status).toBe('completed')
      const followed = await until(job.id, (j) => j.followedUpAt !== null, 30_000)
      expect(followed.followUpNote).toBe('Not delivered, needs your review: The 3D model did not arrive')
    },
  )
})
