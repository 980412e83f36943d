/**
 * The archives a job downloaded are swept at start unless the job is downloading or
 * importing: failed, canceled, completed and deleted jobs leave nothing behind.
 */
import fs from 'node:fs'
import path from 'node:path'
import { jobFolder } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { processingJobs, type ProcessingStatus } from '#db/schema.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { expect, test } from 'vitest'

import {
  archivePathOf,
  importStagingOf,
  partialArchivePathOf,
  removeJobArchive,
  sweepJobArchives,
} from './job-archive.server.ts'

function leaveArchive(jobId: number) {
  fs.mkdirSync(path.join(importStagingOf(jobId), 'model'), { recursive: true })
  fs.writeFileSync(archivePathOf(jobId), 'zip')
  fs.writeFileSync(partialArchivePathOf(jobId), 'part')
  // The job's 3D Tiles are not the archive's: they stay.
  fs.mkdirSync(path.join(jobFolder(jobId), '3d_tiles'), { recursive: true })
}

test('at start, archives of jobs not downloading or importing are swept; a job ending removes its own', async () => {
  const { project } = await projectWithTeam({ status: 'in_progress' })
  const statuses: ProcessingStatus[] = [
    'completed',
    'failed',
    'canceled',
    'downloading',
    'importing',
    'processing',
  ]
  const jobs = statuses.map((status) =>
    getDb()
      .insert(processingJobs)
      .values({ projectId: project.id, preset: 'standard', options: {}, status })
      .returning()
      .get(),
  )
  const deleted = 987_654
  for (const job of [...jobs.map((j) => j.id), deleted]) leaveArchive(job)

  expect(sweepJobArchives()).toBeGreaterThanOrEqual(5)
  const left = (id: number) =>
    [archivePathOf(id), partialArchivePathOf(id), importStagingOf(id)].filter((p) => fs.existsSync(p))
  const byStatus = Object.fromEntries(jobs.map((j) => [j.status, left(j.id).length]))
  expect(byStatus).toEqual({
    completed: 0,
    failed: 0,
    canceled: 0,
    downloading: 3,
    importing: 3,
    processing: 0,
  })
  expect(left(deleted)).toEqual([])
  expect(fs.existsSync(path.join(jobFolder(jobs[0]!.id), '3d_tiles'))).toBe(true)

  await removeJobArchive(jobs[4]!.id)
  expect(left(jobs[4]!.id)).toEqual([])
})
