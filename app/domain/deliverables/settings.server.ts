/**
 * The deliverable settings in `system_settings`, beside the pricing keys: the largest raster
 * (in gigapixels) a viewing copy is made of, the change maps' minimum change (cm), whether
 * photos are processed as soon as the pilot marks their upload finished, and whether a new
 * processing job delivers its results to the client by itself (the Process form's default). A missing or
 * unreadable value is the default.
 */
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import { systemSettings } from '#db/schema.ts'
import { inArray } from 'drizzle-orm'

import { CHANGE_MINIMUM_KEY, DEFAULT_CHANGE_MINIMUM_CM } from './change-settings.ts'
import { DEFAULT_RASTER_MAX_GIGAPIXELS, type DeliverableSettings } from './schemas.ts'

const KEYS: Record<keyof DeliverableSettings, { key: string; description: string }> = {
  rasterMaxGigapixels: {
    key: 'raster_max_gigapixels',
    description: 'Largest raster deliverable a viewing copy is made of (gigapixels)',
  },
  changeMinimumCm: {
    key: CHANGE_MINIMUM_KEY,
    description: 'Smallest elevation change a change map draws, centimetres (volumes count every cell)',
  },
  autoProcessPhotos: {
    key: 'processing_auto_start',
    description: 'Start processing when the pilot marks the photo upload finished (true/false)',
  },
  deliverWhenDone: {
    key: 'processing_deliver_when_done',
    description: 'New processing jobs complete the project when their results are ready (true/false)',
  },
}

export function getDeliverableSettings(db: DbOrTx = getDb()): DeliverableSettings {
  const rows = db
    .select({ key: systemSettings.settingKey, value: systemSettings.settingValue })
    .from(systemSettings)
    .where(
      inArray(
        systemSettings.settingKey,
        Object.values(KEYS).map((k) => k.key),
      ),
    )
    .all()
  const text = (name: keyof DeliverableSettings) => rows.find((r) => r.key === KEYS[name].key)?.value.trim()
  const number = (name: keyof DeliverableSettings) => {
    const value = text(name)
    return value ? Number(value) : Number.NaN
  }
  const raster = number('rasterMaxGigapixels')
  const minimum = number('changeMinimumCm')
  return {
    rasterMaxGigapixels: Number.isFinite(raster) && raster > 0 ? raster : DEFAULT_RASTER_MAX_GIGAPIXELS,
    changeMinimumCm: Number.isFinite(minimum) && minimum >= 0 ? minimum : DEFAULT_CHANGE_MINIMUM_CM,
    autoProcessPhotos: text('autoProcessPhotos') === 'true',
    deliverWhenDone: text('deliverWhenDone') === 'true',
  }
}

/** Saves the given settings (validated with DeliverableSettingsSchema), audited, in one transaction. */
export function saveDeliverableSettings(
  actorId: number,
  values: Partial<DeliverableSettings>,
  db: DbOrTx = getDb(),
) {
  return db.transaction((tx) => {
    const before = getDeliverableSettings(tx)
    const now = new Date()
    for (const [name, value] of Object.entries(values) as Array<[keyof DeliverableSettings, unknown]>) {
      if (value === undefined) continue
      const { key, description } = KEYS[name]
      tx.insert(systemSettings)
        .values({
          settingKey: key,
          settingValue: String(value),
          description,
          updatedBy: actorId,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: systemSettings.settingKey,
          set: { settingValue: String(value), updatedBy: actorId, updatedAt: now },
        })
        .run()
    }
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
