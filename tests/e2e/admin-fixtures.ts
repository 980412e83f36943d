/**
 * Helpers for the admin journeys. `createPaidProject` goes through the real paths without a
 * browser: the demo client creates and quotes a project over the API, accepts the terms and
 * pays at the embedded PayFast simulator, whose signed ITN marks it paid.
 * `seedPaidProject` (direct rows) remains for data the public paths cannot produce.
 */
import path from 'node:path'
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import Database from 'better-sqlite3'

import { sampleFlightArea, sampleFlightPlan } from '../helpers/flight-plan-data.ts'
import { e2eDir } from '../setup/e2e-env.ts'
import { createQuotedProjectViaApi, payViaApi } from './checkout-fixtures.ts'
import { DEMO_PASSWORD, signIn, uniqueEmail, waitForMail } from './fixtures.ts'

export const ADMIN_EMAIL = 'admin@example.com'
export const PILOT_EMAIL = 'pilot@example.com'

export async function loginAsAdmin(page: Page) {
  await signIn(page, ADMIN_EMAIL, DEMO_PASSWORD)
}

export function openE2eDb(dir = e2eDir) {
  const db = new Database(path.join(dir, 'kestrel.sqlite'))
  db.pragma('busy_timeout = 5000')
  return db
}

const FLIGHT_PLAN = sampleFlightPlan([sampleFlightArea(1, 30000, [-33.93, -33.94])])

/**
 * A paid, approved project awaiting a pilot (status pending), owned by a new client (`clientEmail`,
 * or a unique one), in the database of the app in `dir` (this worker's unless told).
 */
export function seedPaidProject(
  name: string,
  { dir = e2eDir, clientEmail = uniqueEmail('admin-e2e-client') } = {},
) {
  const db = openE2eDb(dir)
  try {
    const now = Date.now()
    const hash = (
      db.prepare('select password_hash as h from users where email = ?').get('client@example.com') as {
        h: string
      }
    ).h
    const client = db
      .prepare(
        `insert into users (email, password_hash, first_name, last_name, role, phone, country, is_active, created_at, updated_at)
         values (?, ?, 'Carla', 'Customer', 'client', '831112222', 'South Africa', 1, ?, ?) returning id`,
      )
      .get(clientEmail, hash, now, now) as { id: number }
    const project = db
      .prepare(
        `insert into projects (client_id, name, project_type, location, latitude, longitude, deadline, polygon_geojson, area_sqm,
           distance_from_hub, nearest_hub, base_price, adjusted_price, travel_fee, aviation_fee, subtotal, vat_amount, quote_amount,
           base_cost, profit_margin, platform_share, operator_share, operator_payout, is_approved, is_paid, paid_at, status,
           land_owner_form_uploaded, flight_hours, created_at, updated_at)
         values (?, ?, 'agricultural-mapping', 'Stellenbosch, Western Cape', -33.93, 18.86, '2027-02-01', ?, 30000,
           41.2, 'Cape Town', 225000, 270000, 7616, 0, 277616, 41642, 319258,
           117204, 152796, 45839, 106957, 114573, 1, 1, ?, 'pending', 0, 0, ?, ?) returning id`,
      )
      .get(client.id, name, JSON.stringify(FLIGHT_PLAN), now, now, now) as { id: number }
    db.prepare(
      `insert into invoices (project_id, client_id, project_name, amount, subtotal_amount, vat_amount, payment_method,
         payment_transaction_id, status, invoice_number, paid_at, created_at, updated_at)
       values (?, ?, ?, 319258, 277616, 41642, 'PayFast', ?, 'paid', ?, ?, ?, ?)`,
    ).run(
      project.id,
      client.id,
      name,
      `pf-e2e-${project.id}`,
      `INV-${String(project.id).padStart(6, '0')}`,
      now,
      now,
      now,
    )
    return { projectId: project.id, clientEmail }
  } finally {
    db.close()
  }
}

/** The toast the last action raised (server flash cookie or client toast). */
export async function expectToast(page: Page, title: string | RegExp) {
  await expect(page.getByTestId('toast')).toContainText(title)
}

/** A project the demo client has quoted and paid for through the API and the PayFast simulator. */
export async function createPaidProject(request: APIRequestContext, name: string) {
  const project = await createQuotedProjectViaApi(request, name)
  await payViaApi(request, project)
  await waitForMail((m) => m.subject === `Payment received: ${name}`)
  return project
}
