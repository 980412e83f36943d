/** The minimum elevation change in `system_settings` (a missing or unreadable value is the default). */
import { recordAudit } from '#app/domain/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/domain/db/db.server.ts'
import { systemSettings } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { CHANGE_MINIMUM_KEY, DEFAULT_CHANGE_MINIMUM_CM } from './change-settings.ts'

export function getChangeMinimumCm(db: DbOrTx = getDb()) {
  const row = db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, CHANGE_MINIMUM_KEY))
    .get()
  const value = row && row.value.trim() !== '' ? Number(row.value) : Number.NaN
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_CHANGE_MINIMUM_CM
}

/** Saves the admin's floor and audits it (before/after) in one transaction. */
export function saveChangeMinimumByAdmin(actorId: number, changeMinimumCm: number, db: DbOrTx = getDb()) {
  return db.transaction((tx) => {
    const before = { changeMinimumCm: getChangeMinimumCm(tx) }
    const now = new Date()
    tx.insert(systemSettings)
      .values({
        settingKey: CHANGE_MINIMUM_KEY,
        settingValue: String(changeMinimumCm),
        description: 'Smallest elevation change counted in cut and fill, centimetres',
        updatedBy: actorId,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: systemSettings.settingKey,
        set: { settingValue: String(changeMinimumCm), updatedBy: actorId, updatedAt: now },
      })
      .run()
    const after = { changeMinimumCm: getChangeMinimumCm(tx) }
    recordAudit(
      { actorId, action: 'change-minimum.update', entityType: 'system_settings', before, after },
      tx,
    )
    return after.changeMinimumCm
  })
}
