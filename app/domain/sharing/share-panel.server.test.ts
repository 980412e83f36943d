import { getDb, getSqlite } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { projectFiles, projects, sites } from '#db/schema.ts'
import { createTestUser, insertProject, storeDeliverable } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test, vi } from 'vitest'

import { createShareLink } from './share-links.server.ts'
import { sharePanelData, sharePanelsOfClient } from './share-panel.server.ts'

const DAY = 24 * 60 * 60 * 1000
const completedOn = (i: number) => new Date(Date.now() - (i + 2) * DAY)
const shortDate = (i: number) => formatDate(completedOn(i), { short: true })

/** A client's completed projects: two surveys of one site (dated names) and `alone` others, each with a deliverable and a link. */
async function clientWithProjects(alone: number) {
  const client = await createTestUser({ role: 'client' })
  const admin = { id: (await createTestUser({ role: 'admin' })).id, role: 'admin' as const }
  const site = getDb().insert(sites).values({ clientId: client.id, name: 'Quarry' }).returning().get()
  const rows = []
  for (let i = 0; i < alone + 2; i++) {
    const project = insertProject({ clientId: client.id, status: 'in_progress' })
    const file = await storeDeliverable(admin, project.id, `Report ${i}.pdf`, Buffer.from(`%PDF-1.4\n${i}`))
    getDb()
      .update(projects)
      .set({
        status: 'completed',
        completedAt: completedOn(i),
        siteId: i < 2 ? site.id : null,
      })
      .where(eq(projects.id, project.id))
      .run()
    createShareLink({ id: client.id, role: 'client' }, project.id, {
      allowDownload: true,
      fileIds: [file.id],
    })
    rows.push(project.id)
  }
  // A file retention removed since its link was made: not offered, still named on the link.
  getDb()
    .update(projectFiles)
    .set({ removedAt: new Date(Date.now() - DAY) })
    .where(eq(projectFiles.projectId, rows[0]!))
    .run()
  const draft = insertProject({ clientId: client.id, status: 'draft' })
  const all = getDb().select().from(projects).where(eq(projects.clientId, client.id)).all()
  return { client: { id: client.id, role: 'client' as const }, completed: rows, draft, all }
}

describe('sharePanelsOfClient', () => {
  test('gives each completed project the same panel as sharePanelData does, drafts none', async () => {
    const { client, completed, draft, all } = await clientWithProjects(2)
    const panels = sharePanelsOfClient(client, all)
    expect(Object.keys(panels).map(Number).sort()).toEqual([...completed].sort())
    expect(panels[draft.id]).toBeUndefined()
    for (const id of completed) expect(panels[id]).toEqual(sharePanelData(client, id))
    // The two surveys of the site carry their dates; the others plain names.
    expect(panels[completed[0]!]).toMatchObject({ surveyDate: shortDate(0), deliverables: [] })
    expect(panels[completed[0]!]!.links[0]!.fileNames).toEqual(['Report 0.pdf'])
    expect(panels[completed[1]!]!.deliverables).toEqual([
      { id: expect.any(Number), name: `Report 1 (${shortDate(1)}).pdf` },
    ])
    expect(panels[completed[2]!]).toMatchObject({
      surveyDate: null,
      deliverables: [{ name: 'Report 2.pdf' }],
    })
  })

  test('reads the same few times for twelve projects as for one', async () => {
    const count = async (alone: number) => {
      const { client, all } = await clientWithProjects(alone)
      const prepare = vi.spyOn(getSqlite(), 'prepare')
      sharePanelsOfClient(client, all)
      const queries = prepare.mock.calls.length
      prepare.mockRestore()
      return queries
    }
    const few = await count(0)
    expect(few).toBeLessThanOrEqual(3)
    expect(await count(10)).toBe(few)
  })
})
