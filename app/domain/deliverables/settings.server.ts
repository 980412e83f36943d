/**
 * The deliverable settings in `system_settings`, beside the pricing keys: the largest raster
 * (in gigapixels) a viewing copy is made of. A missing or unreadable value is the default.
 */
import { recordAudit } from '#app/domain/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/domain/db/db.server.ts'
import { formatNumber } from '#app/domain/format/numbers.ts'
import { systemSettings } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { DEFAULT_RASTER_MAX_GIGAPIXELS, type DeliverableSettings } from './schemas.ts'

const RASTER_MAX_GIGAPIXELS_KEY = 'raster_max_gigapixels'

export function getDeliverableSettings(db: DbOrTx = getDb()): DeliverableSettings {
  const row = db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, RASTER_MAX_GIGAPIXELS_KEY))
    .get()
  const value = row ? Number(row.value) : Number.NaN
  return { rasterMaxGigapixels: Number.isFinite(value) && value > 0 ? value : DEFAULT_RASTER_MAX_GIGAPIXELS }
}

/** Saves the settings (validated with DeliverableSettingsSchema), audited, in one transaction. */
export function saveDeliverableSettings(actorId: number, values: DeliverableSettings, db: DbOrTx = getDb()) {
  return db.transaction((tx) => {
    const before = getDeliverableSettings(tx)
    const now = new Date()
    const value = String(values.rasterMaxGigapixels)
    tx.insert(systemSettings)
      .values({
        settingKey: RASTER_MAX_GIGAPIXELS_KEY,
        settingValue: value,
        description: 'Largest raster deliverable a viewing copy is made of (gigapixels)',
        updatedBy: actorId,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: systemSettings.settingKey,
        set: { settingValue: value, updatedBy: actorId, updatedAt: now },
      })
      .run()
    const after = getDeliverableSettings(tx)
    recordAudit(
      { actorId, action: 'deliverable-settings.update', entityType: 'system_settings', before, after },
      tx,
    )
    return after
  })
}

/** Why a raster of this size gets no viewing copy, in plain words; null when it is within the limit. */
export function tooManyPixels(info: { widthPx: number; heightPx: number }, db: DbOrTx = getDb()) {
  const { rasterMaxGigapixels } = getDeliverableSettings(db)
  const gigapixels = (info.widthPx * info.heightPx) / 1e9
  if (gigapixels <= rasterMaxGigapixels) return null
  const size = `${formatNumber(info.widthPx)} × ${formatNumber(info.heightPx)} pixels`
  return `This raster is ${size} (${formatNumber(gigapixels, 1, { minDecimals: 0 })} gigapixels), more than the ${formatNumber(rasterMaxGigapixels, 2, { minDecimals: 0 })} gigapixels a viewing copy is made of. The file is kept for download; an admin can raise the limit in Settings.`
}
