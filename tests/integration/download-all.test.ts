/**
 * GET /api/projects/{id}/download-all: one streamed ZIP of the deliverables and
 * `checksums.sha256`, verified by unzipping; who may take it follows the single download.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as downloadAllRoute from '#app/routes/api.projects.$id.download-all.ts'
import { projectFiles, projects } from '#db/schema.ts'
import { deliveredProject, insertProject, storeDeliverable } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import { describe, expect, test } from 'vitest'

function downloadAll(projectId: number | string, headers: Record<string, string>) {
  return callRoute(downloadAllRoute.loader, `/api/projects/${projectId}/download-all`, {
    headers,
    params: { id: String(projectId) },
  })
}

/**
 * The ZIP holds exactly `names` (sorted) and `checksums.sha256`, whose lines pass
 * `sha256sum -c` in miniature: one a file, each hash matching its entry's bytes.
 */
function expectZipOf(entries: Record<string, Uint8Array>, names: string[]) {
  expect(Object.keys(entries).sort()).toEqual([...names, 'checksums.sha256'])
  const lines = new TextDecoder().decode(entries['checksums.sha256']).trimEnd().split('\n')
  for (const line of lines) {
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line)
    expect(match, line).not.toBeNull()
    const [, hash, name] = match!
    expect(entries[name!], name).toBeDefined()
    expect(createHash('sha256').update(entries[name!]!).digest('hex')).toBe(hash)
  }
  expect(lines.length).toBe(names.length)
}

describe('GET /api/projects/{id}/download-all', () => {
  test('the client gets every deliverable and checksums.sha256; the checksums verify after unzipping', async () => {
    const { client, project, files } = await deliveredProject()
    const res = await downloadAll(project.id, client.headers)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('application/zip')
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="Survey-of-Erf-123-${project.id}-deliverables.zip"`,
    )
    expect(res.headers.get('Content-Length')).toBeNull()
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()))
    expectZipOf(entries, ['Flyover.mp4', 'Orthomosaic preview.png', 'Survey report.pdf'])
    for (const file of Object.values(files)) {
      const row = getDb().select().from(projectFiles).where(eq(projectFiles.id, file.id)).get()!
      expect(Buffer.from(entries[file.originalName]!).equals(fs.readFileSync(absolutePathOf(row)))).toBe(true)
    }
  })

  test('two deliverables with one name both arrive (the second as “name (2)”); removed files are left out', async () => {
    const { client, admin, project, files } = await deliveredProject()
    const actor = { id: admin.user.id, role: 'admin' as const }
    await storeDeliverable(actor, project.id, 'Survey report.pdf', Buffer.from('%PDF-1.4\nsecond report'))
    getDb()
      .update(projectFiles)
      .set({ removedAt: new Date() })
      .where(eq(projectFiles.id, files.video.id))
      .run()
    const entries = unzipSync(
      new Uint8Array(await (await downloadAll(project.id, client.headers)).arrayBuffer()),
    )
    expectZipOf(entries, ['Orthomosaic preview.png', 'Survey report (2).pdf', 'Survey report.pdf'])
  })

  test('roles: the assigned pilot and admins 200; another client 404; signed out 401; a bad id 400', async () => {
    const { otherClient, pilot, admin, project } = await deliveredProject()
    expect((await downloadAll(project.id, pilot.headers)).status).toBe(200)
    expect((await downloadAll(project.id, admin.headers)).status).toBe(200)
    expect((await downloadAll(project.id, otherClient.headers)).status).toBe(404)
    expect((await downloadAll(project.id, {})).status).toBe(401)
    expect((await downloadAll('abc', admin.headers)).status).toBe(400)
    expect((await downloadAll(999_999, admin.headers)).status).toBe(404)
  })

  test('the client: 404 before completion, 410 after the deliverable window; admins still can', async () => {
    const { client, admin, project } = await deliveredProject({ completedDaysAgo: 40 })
    const late = await downloadAll(project.id, client.headers)
    expect(late.status).toBe(410)
    expect((await readJson(late)).error).toBe(
      'Deliverables can be downloaded for one month after completion. Please contact us for a copy.',
    )
    expect((await downloadAll(project.id, admin.headers)).status).toBe(200)
    getDb()
      .update(projects)
      .set({ status: 'in_progress', completedAt: null })
      .where(eq(projects.id, project.id))
      .run()
    expect((await downloadAll(project.id, client.headers)).status).toBe(404)
  })

  test('no deliverables: 404 with a message; all removed: 410 with the date', async () => {
    const { client, admin } = await deliveredProject()
    const empty = insertProject({ clientId: client.user.id, status: 'completed', completedAt: new Date() })
    const none = await downloadAll(empty.id, admin.headers)
    expect(none.status).toBe(404)
    expect((await readJson(none)).error).toBe('This project has no deliverables to download yet')
    const { project } = await deliveredProject()
    getDb()
      .update(projectFiles)
      .set({ removedAt: new Date(Date.UTC(2026, 10, 2, 10)) })
      .where(eq(projectFiles.projectId, project.id))
      .run()
    const gone = await downloadAll(project.id, admin.headers)
    expect(gone.status).toBe(410)
    expect((await readJson(gone)).error).toContain('deleted on 2 November 2026')
  })

  test('only GET (405 for a post)', async () => {
    const { admin, project } = await deliveredProject()
    const res = await callRoute(downloadAllRoute.action, `/api/projects/${project.id}/download-all`, {
      method: 'POST',
      headers: admin.headers,
      params: { id: String(project.id) },
    })
    expect(res.status).toBe(405)
  })
})
