/**
 * Data for the journeys that visit every page (a11y.spec.ts, screenshots.spec.ts): a paid
 * project with its invoice, assigned to the demo pilot, and a quoted (unpaid) project, both
 * owned by one new client; plus the ids of the pilot, a hub and a drone profile.
 */
import path from 'node:path'
import { expect, type PlaywrightWorkerArgs } from '@playwright/test'
import Database from 'better-sqlite3'

import { e2eDir, e2eOrigin } from '../setup/e2e-env.ts'
import { ADMIN_EMAIL, PILOT_EMAIL, seedPaidProject } from './admin-fixtures.ts'
import { createQuotedProjectViaApi } from './checkout-fixtures.ts'
import { DEMO_PASSWORD } from './fixtures.ts'

export interface SeededPages {
  clientEmail: string
  quotedProjectId: number
  paidProjectId: number
  invoiceId: number
  droneId: number
  hubId: number
  pilotId: number
  clientId: number
  /** The client's site of the paid project. */
  siteId: number
}

let seededInThisWorker: Promise<SeededPages> | undefined

/**
 * Once per worker (its app and database stay the same for the run): the journeys that use this
 * only visit pages, so every test of the worker shares the data (each test of a parallel file
 * runs its own beforeAll, and seeding signs in twice).
 */
export function seedPagesData(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
): Promise<SeededPages> {
  seededInThisWorker ??= seed(playwright, baseURL).catch((error: unknown) => {
    seededInThisWorker = undefined
    throw error
  })
  return seededInThisWorker
}

async function seed(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string): Promise<SeededPages> {
  // Writes say where they come from, as a browser's do.
  const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: e2eOrigin } })
  const db = new Database(path.join(e2eDir, 'kestrel.sqlite'))
  db.pragma('busy_timeout = 5000')
  try {
    const id = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { id: number }).id
    const { projectId: paidProjectId, clientEmail } = seedPaidProject(`Orchard survey ${Date.now()}`)
    const quoted = await createQuotedProjectViaApi(request, `Vineyard survey ${Date.now()}`, {
      email: clientEmail,
      password: DEMO_PASSWORD,
    })
    const login = await request.post('/api/auth/login', {
      data: { email: ADMIN_EMAIL, password: DEMO_PASSWORD },
    })
    const { sessionId } = (await login.json()) as { sessionId: string }
    const pilotId = id('select id from users where email = ?', PILOT_EMAIL)
    const assigned = await request.put(`/api/admin/projects/${paidProjectId}/assign-pilot`, {
      headers: { 'x-session-id': sessionId },
      data: { pilotId },
    })
    expect(assigned.status()).toBe(200)
    const drone = db.prepare('select id from drone_profiles order by id').get() as { id: number } | undefined
    const clientId = id('select id from users where email = ?', clientEmail)
    const now = Date.now()
    const siteId = id(
      'insert into sites (client_id, name, created_at, updated_at) values (?, ?, ?, ?) returning id',
      clientId,
      'Orchard site',
      now,
      now,
    )
    db.prepare('update projects set site_id = ? where id = ?').run(siteId, paidProjectId)
    return {
      clientEmail,
      quotedProjectId: quoted.id,
      paidProjectId,
      invoiceId: id('select id from invoices where project_id = ?', paidProjectId),
      droneId: drone?.id ?? 1,
      hubId: id('select id from hubs order by id'),
      pilotId,
      clientId,
      siteId,
    }
  } finally {
    db.close()
    await request.dispose()
  }
}
