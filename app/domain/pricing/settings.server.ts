/**
 * Pricing settings in `system_settings` (keys in settings.ts). Missing or unreadable
 * keys fall back to the defaults, so a fresh database quotes correctly.
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { systemSettings } from '#db/schema.ts'
import { inArray } from 'drizzle-orm'

import {
  DEFAULT_PRICING_SETTINGS,
  PRICING_SETTING_DESCRIPTIONS,
  PRICING_SETTING_KEYS,
  type PricingSettings,
} from './settings.ts'

const FIELDS = Object.keys(PRICING_SETTING_KEYS) as Array<keyof PricingSettings>

export function getPricingSettings(db: DbOrTx = getDb()): PricingSettings {
  const rows = db
    .select({ key: systemSettings.settingKey, value: systemSettings.settingValue })
    .from(systemSettings)
    .where(inArray(systemSettings.settingKey, Object.values(PRICING_SETTING_KEYS)))
    .all()
  const stored = new Map(rows.map((r) => [r.key, r.value]))
  const settings = { ...DEFAULT_PRICING_SETTINGS }
  for (const field of FIELDS) {
    const raw = stored.get(PRICING_SETTING_KEYS[field])
    const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw)
    if (Number.isFinite(value) && value >= 0) settings[field] = value
  }
  return settings
}

/**
 * Upserts the given settings (others stay as they are) in one transaction and returns
 * the settings now in force. Validate with `PricingSettingsSchema` first.
 */
export function savePricingSettings(
  values: Partial<PricingSettings>,
  updatedBy: number | null,
  db: DbOrTx = getDb(),
): PricingSettings {
  const now = new Date()
  const write = (tx: DbOrTx) => {
    for (const field of FIELDS) {
      const value = values[field]
      if (value === undefined) continue
      tx.insert(systemSettings)
        .values({
          settingKey: PRICING_SETTING_KEYS[field],
          settingValue: String(value),
          description: PRICING_SETTING_DESCRIPTIONS[field],
          updatedBy,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: systemSettings.settingKey,
          set: { settingValue: String(value), updatedBy, updatedAt: now },
        })
        .run()
    }
  }
  // Inside a caller's transaction this becomes a savepoint.
  db.transaction((tx) => write(tx))
  return getPricingSettings(db)
}
