/** Every row of `system_settings`, for `GET /api/admin/system-settings`. */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { systemSettings } from '#db/schema.ts'
import { asc } from 'drizzle-orm'

export function listSystemSettings(db: DbOrTx = getDb()) {
  return db.select().from(systemSettings).orderBy(asc(systemSettings.settingKey)).all()
}
