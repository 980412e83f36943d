/**
 * The materials table in `system_settings` (`stockpile_materials`, JSON): read by the Map view's
 * note form and by a stockpile saved with a listed material and no density; an admin saves it
 * from Settings, audited. A missing or unreadable value is the default table.
 */
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { systemSettings } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { DEFAULT_MATERIALS, parseMaterials, type Material } from './materials.ts'

const KEY = 'stockpile_materials'

export function getMaterials(db: DbOrTx = getDb()): Material[] {
  const row = db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, KEY))
    .get()
  if (!row) return [...DEFAULT_MATERIALS]
  try {
    const stored = JSON.parse(row.value) as Material[]
    // Read back through the same rules the form has: a hand-edited row cannot sneak past them.
    const parsed = parseMaterials(
      stored.map((m) => `${m.name} = ${String(m.densityTPerM3).replace('.', ',')}`).join('\n'),
    )
    return 'materials' in parsed ? parsed.materials : [...DEFAULT_MATERIALS]
  } catch {
    return [...DEFAULT_MATERIALS]
  }
}

/** Saves the table (already parsed), audited, in one transaction. */
export function saveMaterials(actorId: number, materials: Material[], db: DbOrTx = getDb()) {
  return db.transaction((tx) => {
    const before = getMaterials(tx)
    const value = JSON.stringify(materials)
    const now = new Date()
    tx.insert(systemSettings)
      .values({
        settingKey: KEY,
        settingValue: value,
        description: 'Stockpile materials and their bulk densities (t/m³)',
        updatedBy: actorId,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: systemSettings.settingKey,
        set: { settingValue: value, updatedBy: actorId, updatedAt: now },
      })
      .run()
    recordAudit(
      {
        actorId,
        action: 'stockpile-materials.update',
        entityType: 'system_settings',
        before,
        after: materials,
      },
      tx,
    )
    return materials
  })
}
