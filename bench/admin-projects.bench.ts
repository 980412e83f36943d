/**
 * The admin 'All Projects' page query at 10 000 projects (issue 5: "fast with 10 000
 * projects"). Seeds 10 000 projects for 200 clients in one transaction, then times the
 * queries the Projects tab runs: first page, a status filter, a text search and a deep page.
 */
import { listAllProjects } from '#app/domain/admin/admin-projects.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { projects, users } from '#db/schema.ts'
import { bench, describe } from 'vitest'

const STATUSES = ['draft', 'pending', 'assigned', 'in_progress', 'completed'] as const

function seed() {
  const db = getDb()
  if (db.select({ id: projects.id }).from(projects).limit(1).get()) return
  db.transaction((tx) => {
    const clientIds: number[] = []
    for (let c = 0; c < 200; c++) {
      const user = tx
        .insert(users)
        .values({
          email: `bench-client-${c}@example.test`,
          passwordHash: 'x',
          firstName: `Client${c}`,
          lastName: 'Bench',
          role: 'client',
        })
        .returning({ id: users.id })
        .get()
      clientIds.push(user.id)
    }
    const start = Date.now() - 10_000 * 60_000
    for (let i = 0; i < 10_000; i++) {
      tx.insert(projects)
        .values({
          clientId: clientIds[i % clientIds.length]!,
          name: `Survey ${i} ${i % 7 === 0 ? 'Vineyard' : 'Site'}`,
          projectType: 'construction-survey',
          location: i % 3 === 0 ? 'Stellenbosch' : 'Johannesburg',
          status: STATUSES[i % STATUSES.length]!,
          quoteAmount: 400_000 + i,
          isPaid: i % 2 === 0,
          createdAt: new Date(start + i * 60_000),
        })
        .run()
    }
  })
}

seed()

describe('admin All Projects at 10 000 projects', () => {
  bench('first page, no filter', () => {
    listAllProjects({})
  })
  bench('status filter (pending)', () => {
    listAllProjects({ status: 'pending' })
  })
  bench('search "vineyard"', () => {
    listAllProjects({ q: 'vineyard' })
  })
  bench('page 400 (deep offset)', () => {
    listAllProjects({ page: 400 })
  })
})
