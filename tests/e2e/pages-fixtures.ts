/**
 * Data for the journey that visits every page (pages.spec.ts): a paid
 * project with its invoice, assigned to the demo pilot, and a quoted (unpaid) project, both
 * owned by one new client; plus the ids of the pilot, a hub and a drone profile. Seeded once per
 * app by the global set-up (tests/setup/e2e-global-setup.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, request } from '@playwright/test'

import { e2eDir } from '../setup/e2e-env.ts'
import { ADMIN_EMAIL, openE2eDb, PILOT_EMAIL, seedPaidProject } from './admin-fixtures.ts'
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

const seededFile = (dir: string) => path.join(dir, 'pages-seeded.json')

/**
 * The data, as the global set-up seeded it into this worker's app. The journeys that use it
 * only visit pages, so every test shares it; seeded on each app's fresh database, the same
 * names and ids on every app make the same pages, whose verdict pages.spec.ts then reuses
 * across workers and projects.
 */
export function seedPagesData(): SeededPages {
  return JSON.parse(fs.readFileSync(seededFile(e2eDir), 'utf8')) as SeededPages
}

/** Seeds the app on `origin` whose files are in `dir` (the global set-up, once per app). */
export async function seedPagesApp(dir: string, origin: string): Promise<void> {
  // Writes say where they come from, as a browser's do.
  const context = await request.newContext({ baseURL: origin, extraHTTPHeaders: { Origin: origin } })
  const db = openE2eDb(dir)
  try {
    const id = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { id: number }).id
    const { projectId: paidProjectId, clientEmail } = seedPaidProject('Orchard survey', {
      dir,
      clientEmail: 'pages-client@example.test',
    })
    const quoted = await createQuotedProjectViaApi(
      context,
      'Vineyard survey',
      { email: clientEmail, password: DEMO_PASSWORD },
      origin,
    )
    const login = await context.post('/api/auth/login', {
      data: { email: ADMIN_EMAIL, password: DEMO_PASSWORD },
    })
    const { sessionId } = (await login.json()) as { sessionId: string }
    const pilotId = id('select id from users where email = ?', PILOT_EMAIL)
    const assigned = await context.put(`/api/admin/projects/${paidProjectId}/assign-pilot`, {
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
    const seeded: SeededPages = {
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
    fs.writeFileSync(seededFile(dir), JSON.stringify(seeded))
  } finally {
    db.close()
    await context.dispose()
  }
}
