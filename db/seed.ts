/**
 * Demo data (only with SEED=demo, never in production): three accounts, three hubs
 * and the default pricing settings (and the reference drones, as at start). Idempotent: running it again adds nothing twice.
 */
import { eq } from 'drizzle-orm'

import { countZones, loadRsaAirspace } from '../app/domain/airspace/airspace.server.ts'
import { hashPassword } from '../app/domain/auth/password.server.ts'
import {
  DEFAULT_PRICING_SETTINGS,
  PRICING_SETTING_DESCRIPTIONS,
  PRICING_SETTING_KEYS,
  type PricingSettings,
} from '../app/domain/pricing/settings.ts'
import { ensureReferenceDrones } from '../app/domain/survey/drone-profiles.server.ts'
import { getDb } from '../app/lib/db/db.server.ts'
import { hubs, systemSettings, users } from './schema.ts'

export const DEMO_PASSWORD = 'kestrel-demo'

export const DEMO_HUBS = [
  {
    name: 'Cape Town',
    address: 'Cape Town, Western Cape',
    latitude: -33.9249,
    longitude: 18.4241,
    description: 'Head office and main drone hub',
  },
  {
    name: 'Johannesburg',
    address: 'Johannesburg, Gauteng',
    latitude: -26.2041,
    longitude: 28.0473,
    description: 'Gauteng operations hub',
  },
  {
    name: 'Durban',
    address: 'Durban, KwaZulu-Natal',
    latitude: -29.8587,
    longitude: 31.0218,
    description: 'KwaZulu-Natal operations hub',
  },
]

/** Adds the default pricing settings that are missing (used by the demo seed and at start). */
export function ensurePricingSettings() {
  const db = getDb()
  for (const field of Object.keys(PRICING_SETTING_KEYS) as Array<keyof PricingSettings>) {
    db.insert(systemSettings)
      .values({
        settingKey: PRICING_SETTING_KEYS[field],
        settingValue: String(DEFAULT_PRICING_SETTINGS[field]),
        description: PRICING_SETTING_DESCRIPTIONS[field],
      })
      .onConflictDoNothing({ target: systemSettings.settingKey })
      .run()
  }
}

export async function seedDemo() {
  if (process.env.NODE_ENV === 'production' && process.env.ALLOW_DEMO_SEED !== 'true') {
    console.warn('[seed] SEED=demo ignored in production')
    return
  }
  const db = getDb()
  ensureReferenceDrones(db)
  const passwordHash = await hashPassword(DEMO_PASSWORD)
  const accounts = [
    { email: 'admin@example.com', firstName: 'Ayanda', lastName: 'Admin', role: 'admin' as const },
    {
      email: 'pilot@example.com',
      firstName: 'Pieter',
      lastName: 'Pilot',
      role: 'pilot' as const,
      phone: '821234567',
      serviceArea: 'Western Cape',
      droneTypes: 'DJI Matrice 350 RTK, DJI Mavic 3 Enterprise',
      pilotLicenseNumber: 'RPL-ZA-004521',
      pilotLicenseUrl: 'https://example.com/licences/rpl-004521.pdf',
    },
    {
      email: 'client@example.com',
      firstName: 'Chloe',
      lastName: 'Client',
      role: 'client' as const,
      phone: '831234567',
      companyName: 'Stellenbosch Wine Estates',
      industry: 'Agriculture',
      country: 'South Africa',
    },
  ]
  for (const account of accounts) {
    const exists = db.select({ id: users.id }).from(users).where(eq(users.email, account.email)).get()
    if (!exists)
      db.insert(users)
        .values({ ...account, passwordHash })
        .run()
  }
  for (const hub of DEMO_HUBS) {
    const exists = db.select({ id: hubs.id }).from(hubs).where(eq(hubs.name, hub.name)).get()
    if (!exists) db.insert(hubs).values(hub).run()
  }
  ensurePricingSettings()
  // The national airspace dataset, unless an admin has already loaded or uploaded zones.
  if (countZones(db) === 0) {
    const { inserted } = loadRsaAirspace(db)
    console.log(`[seed] loaded ${inserted} South African airspace zones`)
  }
  console.log('[seed] demo accounts, hubs and pricing settings are in place')
}
