/**
 * Retention of a site's surveys (ADR 281): a completed survey on a site keeps its processed
 * deliverables while the site waits for its next survey and for one month after that survey
 * is completed, so each pair can be compared; raw photos and videos follow the ordinary
 * month; a cancelled repeat keeps nothing; the daily job agrees with the download check.
 */
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { toProjectCard } from '#app/domain/dashboard/project-card.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { removeExpiredProjectFiles } from '#app/domain/files/retention.server.ts'
import { deliverablesAvailableUntil, SITE_WAIT_LIMIT_MONTHS } from '#app/domain/files/rules.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as downloadRoute from '#app/routes/api.download-file.$id.ts'
import { projectFiles, projects, sites, type FileCategory, type ProjectStatus } from '#db/schema.ts'
import { getProject, insertProject, projectWithTeam } from '#tests/factories.ts'
import { mp4Bytes, PNG_BYTES } from '#tests/helpers/files.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const DAY = 24 * 60 * 60 * 1000
const daysAgo = (days: number, now = new Date()) => new Date(now.getTime() - days * DAY)

/** A site with one survey completed `completedDaysAgo`, its deliverable, a flight photo and a video. */
async function siteWithFirstSurvey(completedDaysAgo: number, repeatEvery: 'month' | 'quarter' | null = null) {
  const { client, pilot, admin, project } = await projectWithTeam({
    status: 'completed',
    completedAt: daysAgo(completedDaysAgo),
  })
  const site = getDb()
    .insert(sites)
    .values({ clientId: client.user.id, name: 'Quarry', repeatEvery })
    .returning()
    .get()
  getDb().update(projects).set({ siteId: site.id }).where(eq(projects.id, project.id)).run()
  const store = (category: FileCategory, name: string, bytes: Uint8Array) =>
    storeProjectFile({
      user: { id: admin.user.id, role: 'admin' },
      projectId: project.id,
      category,
      originalName: name,
      source: Readable.from([bytes]),
    })
  const deliverable = await store('processed_deliverable', 'orthomosaic.png', PNG_BYTES)
  const photo = await store('raw_image', 'DJI_0001.png', PNG_BYTES)
  const video = await store('raw_video', 'flight.mp4', mp4Bytes())
  /** The site's next survey, in any state. */
  const next = (status: ProjectStatus, completedAt: Date | null = null) => {
    const repeat = insertProject({ clientId: client.user.id, pilotId: pilot.user.id, status, completedAt })
    getDb()
      .update(projects)
      .set({ siteId: site.id, repeatOfProjectId: project.id })
      .where(eq(projects.id, repeat.id))
      .run()
    return repeat
  }
  return { client, admin, project, site, deliverable, photo, video, next }
}

const removedAt = (id: number) =>
  getDb().select().from(projectFiles).where(eq(projectFiles.id, id)).get()!.removedAt
const onDisk = (id: number) =>
  fs.existsSync(absolutePathOf(getDb().select().from(projectFiles).where(eq(projectFiles.id, id)).get()!))

function download(headers: Record<string, string>, id: number) {
  return callRoute(downloadRoute.loader, `/api/download-file/${id}`, { headers, params: { id: String(id) } })
}

describe('a survey on a site', () => {
  test('keeps its deliverable for the client while the repeat is pending; the flight media go after a month', async () => {
    const first = await siteWithFirstSurvey(60)
    first.next('assigned')

    expect((await download(first.client.headers, first.deliverable.id)).status).toBe(200)
    // What the client reads: kept until a month after the next survey.
    expect(toProjectCard(getProject(first.project.id)).deliverablesUntilNextSurvey).toBe(true)
    const result = await removeExpiredProjectFiles()
    expect(result.projects).toContain(first.project.id)
    expect(removedAt(first.deliverable.id)).toBeNull()
    expect(onDisk(first.deliverable.id)).toBe(true)
    // Raw imagery is the most personal and is not needed to compare: the ordinary month.
    for (const f of [first.photo, first.video]) {
      expect(removedAt(f.id)).not.toBeNull()
      expect(onDisk(f.id)).toBe(false)
    }
    expect((await download(first.client.headers, first.deliverable.id)).status).toBe(200)
  })

  test('after the repeat is completed it stays one more month, then the job removes it', async () => {
    const now = new Date()
    const first = await siteWithFirstSurvey(70)
    const repeat = first.next('completed', daysAgo(10, now))

    await removeExpiredProjectFiles(now)
    expect(removedAt(first.deliverable.id)).toBeNull()
    expect((await download(first.client.headers, first.deliverable.id)).status).toBe(200)
    const card = toProjectCard(getProject(first.project.id))
    expect(card.deliverablesUntilNextSurvey).toBe(false)
    expect(card.deliverablesUntil).toBe(deliverablesAvailableUntil(repeat.completedAt!).toISOString())

    // A month after the repeat was completed (and the repeat's own files are kept: the site
    // waits for nothing more, so it follows its own month).
    const later = new Date(now.getTime() + 22 * DAY)
    const result = await removeExpiredProjectFiles(later)
    expect(result.projects).toContain(first.project.id)
    expect(result.projects).not.toContain(repeat.id)
    expect(removedAt(first.deliverable.id)?.getTime()).toBe(later.getTime())
    expect(onDisk(first.deliverable.id)).toBe(false)
    expect((await download(first.client.headers, first.deliverable.id)).status).toBe(410)
  })

  test('a cancelled repeat keeps nothing: the ordinary month applies', async () => {
    const first = await siteWithFirstSurvey(40)
    first.next('cancelled')
    expect((await download(first.client.headers, first.deliverable.id)).status).toBe(410)
    await removeExpiredProjectFiles()
    expect(removedAt(first.deliverable.id)).not.toBeNull()
    expect(onDisk(first.deliverable.id)).toBe(false)
  })

  test('a repeat schedule keeps it while the site waits, but not beyond the wait limit', async () => {
    const now = new Date()
    const waiting = await siteWithFirstSurvey(80, 'quarter')
    const abandoned = await siteWithFirstSurvey(SITE_WAIT_LIMIT_MONTHS * 31 + 1, 'month')
    // A draft nobody pays for does not hold the files for ever either.
    abandoned.next('draft')

    const result = await removeExpiredProjectFiles(now)
    expect(removedAt(waiting.deliverable.id)).toBeNull()
    expect((await download(waiting.client.headers, waiting.deliverable.id)).status).toBe(200)
    expect(result.projects).toContain(abandoned.project.id)
    expect(removedAt(abandoned.deliverable.id)).not.toBeNull()
  })

  test('a survey without a site follows the ordinary month', async () => {
    const { client, admin, project } = await projectWithTeam({
      status: 'completed',
      completedAt: daysAgo(40),
    })
    const file = await storeProjectFile({
      user: { id: admin.user.id, role: 'admin' },
      projectId: project.id,
      category: 'processed_deliverable',
      originalName: 'orthomosaic.png',
      source: Readable.from([PNG_BYTES]),
    })
    expect((await download(client.headers, file.id)).status).toBe(410)
    await removeExpiredProjectFiles()
    expect(removedAt(file.id)).not.toBeNull()
  })
})
