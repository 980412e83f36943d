import { listAllProjects, PROJECTS_PAGE_SIZE } from '#app/domain/admin/admin-projects.server.ts'
import { addTestFile, createTestProject, createTestUser } from '#tests/factories.ts'
import { describe, expect, test } from 'vitest'

describe('All Projects list', () => {
  test('newest first, paged, filtered by status and searched by name or client e-mail, with media counts', async () => {
    const client = await createTestUser({ role: 'client', email: 'olive.grove@example.test' })
    const created = []
    for (let i = 0; i < PROJECTS_PAGE_SIZE + 5; i++) {
      created.push(
        await createTestProject({
          clientId: client.id,
          name: `Plot ${i}`,
          status: i % 5 === 0 ? 'completed' : 'pending',
        }),
      )
    }
    addTestFile(created.at(-1)!.id, 'image/jpeg')
    addTestFile(created.at(-1)!.id, 'video/mp4')
    addTestFile(created.at(-1)!.id, 'image/png')

    const first = listAllProjects({})
    expect(first.total).toBe(PROJECTS_PAGE_SIZE + 5)
    expect(first.pageCount).toBe(2)
    expect(first.projects).toHaveLength(PROJECTS_PAGE_SIZE)
    expect(first.projects[0]).toMatchObject({
      name: `Plot ${PROJECTS_PAGE_SIZE + 4}`,
      imageCount: 2,
      videoCount: 1,
      clientEmail: 'olive.grove@example.test',
      pilotName: null,
    })
    expect(listAllProjects({ page: 2 }).projects).toHaveLength(5)
    expect(listAllProjects({ page: 99 }).page).toBe(2)

    expect(listAllProjects({ status: 'completed' }).total).toBe(5)
    expect(listAllProjects({ q: 'Plot 1' }).projects.every((p) => p.name.startsWith('Plot 1'))).toBe(true)
    expect(listAllProjects({ q: 'olive.grove' }).total).toBe(PROJECTS_PAGE_SIZE + 5)
    expect(listAllProjects({ q: '100%_' }).total).toBe(0)
  })
})
