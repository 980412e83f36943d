/**
 * Each step of the runner alone, against the NodeODM simulator: one job is taken through
 * submit, upload, follow, download and import, each test running one step on the row the one
 * before left (the runner's loop is not started); failing paths each on a fresh job.
 */
import fs from 'node:fs'
import path from 'node:path'

// The import stores deliverables, whose viewing copies the pipeline queues.
import '#app/domain/deliverables/pipeline.server.ts'

import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import { getTaskInfo } from '#app/domain/processing/nodeodm-client.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { processingJobs, processingNodes, projectFiles, type ProcessingJob } from '#db/schema.ts'
import { onlyNode, projectWithPhotos, queuedJob } from '#tests/helpers/processing-project.ts'
import { stepContext, withNodeOdmSimulator } from '#tests/helpers/processing-runs.ts'
import { and, eq, isNotNull } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { Aborted } from './context.server.ts'
import { download } from './download.server.ts'
import { follow } from './follow.server.ts'
import { importResults } from './import.server.ts'
import { submit } from './submit.server.ts'
import { upload } from './upload.server.ts'

const simulator = withNodeOdmSimulator('steps', { rasterSize: 64 })

/** Follows until the node's task has ended (the step is called as the runner would, each pollMs). */
async function followToEnd(job: ProcessingJob) {
  let current: ProcessingJob | null = job
  for (let i = 0; i < 2000 && current?.status === 'processing'; i++) {
    current = await follow(current, stepContext())
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return current!
}

async function uploadedJob(count = 5) {
  const { admin, project } = await projectWithPhotos(count)
  const submitted = await submit(queuedJob(project.id, admin.user.id), stepContext())
  return upload(submitted!, stepContext())
}

describe('the steps, one at a time', () => {
  let job: ProcessingJob
  let projectId: number

  test('submit: no node online leaves the job waiting; with one, a task is made there', async () => {
    const { admin, project } = await projectWithPhotos(5)
    projectId = project.id
    getDb().update(processingNodes).set({ enabled: false }).run()
    const before = Date.now()
    const waiting = await submit(queuedJob(project.id, admin.user.id), stepContext())
    expect(waiting).toMatchObject({
      status: 'queued',
      stage: 'Waiting for a processing node',
      taskUuid: null,
    })
    // Looked at again a poll later.
    expect(waiting!.nextCheckAt!.getTime()).toBeGreaterThanOrEqual(before + stepContext().settings.pollMs)

    const node = await onlyNode(simulator.url)
    job = (await submit(waiting!, stepContext()))!
    expect(job).toMatchObject({ status: 'uploading', nodeId: node.id, imagesCount: 5, imagesUploaded: 0 })
  })

  test('upload: the photos in batches, progress after each, then the commit (the task has the survey areas as its boundary)', async () => {
    job = (await upload(job, stepContext()))!
    expect(job).toMatchObject({ status: 'processing', imagesUploaded: 5, stage: 'Queued on the node' })
    const info = await getTaskInfo({ url: simulator.url, token: null }, job.taskUuid!)
    expect(info.imagesCount).toBe(5)
    // The task as submit made it (NodeODM shows a task only once committed).
    const raw = (await (await fetch(`${simulator.url}/task/${job.taskUuid}/info`)).json()) as {
      options: Array<{ name: string; value: unknown }>
    }
    const boundary = raw.options.find((option) => option.name === 'boundary')
    expect(JSON.parse(String(boundary?.value))).toMatchObject({ type: 'FeatureCollection' })
  })

  test('follow: the node’s progress and console lines until its task completes', async () => {
    const before = Date.now()
    const first = (await follow(job, stepContext()))!
    expect(first.nodeSeenAt).not.toBeNull()
    // Still running on the node (a fast one may have finished already: then it is downloading).
    if (first.status === 'processing') {
      expect(first.nextCheckAt!.getTime()).toBeGreaterThanOrEqual(before + stepContext().settings.pollMs)
    }
    job = await followToEnd(first)
    expect(job).toMatchObject({ status: 'downloading', stage: 'Downloading results', nextCheckAt: null })
    expect(job.outputTail?.length).toBeGreaterThan(0)
    expect(job.outputLines).toBe(job.outputTail!.length)
  })

  test('download: all.zip lands whole in the job’s folder', async () => {
    job = (await download(job, stepContext()))!
    expect(job).toMatchObject({ status: 'importing', stage: 'Importing results' })
    const zip = path.join(jobFolder(job.id), 'all.zip')
    expect(fs.readFileSync(zip).subarray(0, 2).toString()).toBe('PK')
    expect(fs.existsSync(`${zip}.partial`)).toBe(false)
  })

  test('import: the archive becomes the project’s deliverables noting the job, then goes', async () => {
    job = (await importResults(job, stepContext()))!
    expect(job).toMatchObject({ status: 'completed', progressPercent: 100, stage: 'Completed' })
    const files = getDb()
      .select()
      .from(projectFiles)
      .where(and(eq(projectFiles.projectId, projectId), isNotNull(projectFiles.processingJobId)))
      .all()
    expect(files.length).toBeGreaterThan(0)
    expect(files.every((f) => f.processingNote?.jobId === job.id)).toBe(true)
    expect(fs.existsSync(path.join(jobFolder(job.id), 'all.zip'))).toBe(false)
  })
})

describe('steps that end a job', () => {
  test('follow: a task the node failed fails the job with the node’s words', async () => {
    await onlyNode(simulator.url)
    simulator.setFaults({ fail: 'Not enough overlap' })
    try {
      const ended = await followToEnd((await uploadedJob(5))!)
      expect(ended).toMatchObject({ status: 'failed', error: 'Not enough overlap' })
    } finally {
      simulator.setFaults({})
    }
  })

  test('import: without its archive (a restart after it went) the job goes back to downloading', async () => {
    await onlyNode(simulator.url)
    const job = (await uploadedJob(5))!
    const importing = getDb()
      .update(processingJobs)
      .set({ status: 'importing' })
      .where(eq(processingJobs.id, job.id))
      .returning()
      .get()
    const back = await importResults(importing, stepContext())
    expect(back).toMatchObject({ status: 'downloading', nextCheckAt: null })
  })

  test('a step whose signal is aborted writes nothing', async () => {
    await onlyNode(simulator.url)
    const { admin, project } = await projectWithPhotos(5)
    const controller = new AbortController()
    controller.abort()
    const queued = queuedJob(project.id, admin.user.id)
    await expect(submit(queued, stepContext({ signal: controller.signal }))).rejects.toBeInstanceOf(Aborted)
    expect(getDb().select().from(processingJobs).where(eq(processingJobs.id, queued.id)).get()).toMatchObject(
      {
        status: 'queued',
        taskUuid: null,
      },
    )
  })
})
