/**
 * Active hubs: what the planner shows and the quote measures distances from.
 * (Hub CRUD lives in hubs.server.ts, owned by the admin area.)
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { hubs } from '#db/schema.ts'
import { asc, eq } from 'drizzle-orm'

export interface ActiveHub {
  id: number
  name: string
  address: string
  latitude: number
  longitude: number
  description: string | null
}

/** `GET /api/hubs` shape, ordered by name. */
export function listActiveHubs(db: DbOrTx = getDb()): ActiveHub[] {
  return db
    .select({
      id: hubs.id,
      name: hubs.name,
      address: hubs.address,
      latitude: hubs.latitude,
      longitude: hubs.longitude,
      description: hubs.description,
    })
    .from(hubs)
    .where(eq(hubs.isActive, true))
    .orderBy(asc(hubs.name))
    .all()
}
