/**
 * The upload step with several batches in flight, against the NodeODM simulator: the progress
 * written is always the photos sent without a gap (never more, never going back), every photo
 * arrives once; a batch the node refuses for good stops the upload with the node's words.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { getTaskInfo, NodeOdmError } from '#app/domain/processing/nodeodm-client.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { processingJobs } from '#db/schema.ts'
import { onlyNode, projectWithPhotos, queuedJob } from '#tests/helpers/processing-project.ts'
import { stepContext } from '#tests/helpers/processing-runs.ts'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, test } from 'vitest'

import { startNodeOdmSimulator, type NodeOdmSimulator } from '../../../../server/nodeodm-simulator/index.ts'
import { submit } from './submit.server.ts'
import { upload } from './upload.server.ts'

const dirs: string[] = []
const simulators: NodeOdmSimulator[] = []

afterAll(async () => {
  await Promise.all(simulators.map((s) => s.close()))
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
})

async function simulator(limits: { maxFilesPerTask?: number } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-upload-'))
  dirs.push(dataDir)
  const sim = await startNodeOdmSimulator({ dataDir, rasterSize: 64, limits })
  simulators.push(sim)
  return sim
}

async function submitted(sim: NodeOdmSimulator, photos: number) {
  await onlyNode(sim.url)
  const { admin, project } = await projectWithPhotos(photos)
  return (await submit(queuedJob(project.id, admin.user.id), stepContext({ uploadsInFlight: 3 })))!
}

describe('upload with batches in flight', () => {
  test('the progress is the photos sent without a gap; every photo arrives once', async () => {
    const sim = await simulator()
    const job = await submitted(sim, 9)
    const seen: number[] = []
    const watch = setInterval(() => {
      const row = getDb().select().from(processingJobs).where(eq(processingJobs.id, job.id)).get()!
      if (seen.at(-1) !== row.imagesUploaded) seen.push(row.imagesUploaded)
    }, 1)
    const done = await upload(job, stepContext({ uploadsInFlight: 3 })).finally(() => clearInterval(watch))
    expect(done).toMatchObject({ status: 'processing', imagesUploaded: 9 })
    // Batches end on 2, 4, 6, 8 and 9 photos: the progress only ever names one of those, in order.
    expect(seen.every((n) => [0, 2, 4, 6, 8, 9].includes(n))).toBe(true)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    expect((await getTaskInfo({ url: sim.url, token: null }, done!.taskUuid!)).imagesCount).toBe(9)
  })

  test('a batch the node refuses for good stops the upload with the node’s words', async () => {
    const sim = await simulator({ maxFilesPerTask: 5 })
    const job = await submitted(sim, 9)
    const error = await upload(job, stepContext({ uploadsInFlight: 3 })).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(NodeOdmError)
    expect((error as NodeOdmError).message).toContain('Too many files')
    const row = getDb().select().from(processingJobs).where(eq(processingJobs.id, job.id)).get()!
    expect(row.status).toBe('uploading')
    expect(row.imagesUploaded).toBeLessThan(9)
  })
})
