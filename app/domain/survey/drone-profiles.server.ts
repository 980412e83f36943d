/**
 * Drone profiles: the admin's list, create, edit, activate/deactivate and
 * delete (audited), and the one-time insert of the reference drones.
 */
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type Db, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { droneProfiles, systemSettings, type DroneProfile } from '#db/schema.ts'
import { asc, eq } from 'drizzle-orm'

import type { DroneProfileInput } from './drone-profile-schema.ts'
import { DEFAULT_DRONE_NAME, REFERENCE_DRONES } from './reference-drones.ts'

const DRONE_NOT_FOUND = 'Drone profile not found'
const DRONE_NAME_TAKEN = 'A drone profile with this name already exists'
/** Marks that the reference drones were inserted, so a drone the admin deleted stays deleted. */
const SEEDED_KEY = 'survey.reference_drones_seeded'

/**
 * Inserts the reference drones once per database: a start-up step (server.ts, the vitest
 * set-up, the demo seed), not part of opening the database, so db.server.ts depends on no
 * domain module. Idempotent: a second run, or a database that already has them, changes nothing.
 */
export function ensureReferenceDrones(db: Db = getDb()) {
  const seeded = db
    .select({ id: systemSettings.id })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, SEEDED_KEY))
    .get()
  if (seeded) return
  db.transaction((tx) => {
    for (const drone of REFERENCE_DRONES)
      tx.insert(droneProfiles).values(drone).onConflictDoNothing({ target: droneProfiles.name }).run()
    tx.insert(systemSettings)
      .values({
        settingKey: SEEDED_KEY,
        settingValue: String(REFERENCE_DRONES.length),
        description: 'Reference drone profiles inserted',
      })
      .onConflictDoNothing({ target: systemSettings.settingKey })
      .run()
  })
}

export function listDroneProfiles(
  options: { activeOnly?: boolean } = {},
  db: DbOrTx = getDb(),
): DroneProfile[] {
  const query = db.select().from(droneProfiles)
  return (options.activeOnly ? query.where(eq(droneProfiles.isActive, true)) : query)
    .orderBy(asc(droneProfiles.name), asc(droneProfiles.id))
    .all()
}

export function findDroneProfile(id: number, db: DbOrTx = getDb()): DroneProfile | null {
  return db.select().from(droneProfiles).where(eq(droneProfiles.id, id)).get() ?? null
}

function requireDroneProfile(id: number, db: DbOrTx = getDb()): DroneProfile {
  const drone = findDroneProfile(id, db)
  if (!drone) throw new DomainError(404, DRONE_NOT_FOUND)
  return drone
}

/** The drone a plan uses when none is chosen: the default reference drone, else the first active one. */
export function defaultDroneProfile(db: DbOrTx = getDb()): DroneProfile | null {
  const active = listDroneProfiles({ activeOnly: true }, db)
  return active.find((d) => d.name === DEFAULT_DRONE_NAME) ?? active[0] ?? null
}

function nameTaken(name: string, exceptId: number | null, db: DbOrTx) {
  const other = db
    .select({ id: droneProfiles.id })
    .from(droneProfiles)
    .where(eq(droneProfiles.name, name))
    .get()
  return Boolean(other && other.id !== exceptId)
}

function refuseDuplicate(name: string, exceptId: number | null, db: DbOrTx) {
  if (nameTaken(name, exceptId, db))
    throw new DomainError(409, DRONE_NAME_TAKEN, { fieldErrors: { name: [DRONE_NAME_TAKEN] } })
}

export function createDroneProfile(actorId: number, input: DroneProfileInput): DroneProfile {
  return getDb().transaction((tx) => {
    refuseDuplicate(input.name, null, tx)
    const drone = tx.insert(droneProfiles).values(input).returning().get()
    recordAudit(
      { actorId, action: 'drone.create', entityType: 'drone_profile', entityId: drone.id, after: drone },
      tx,
    )
    return drone
  })
}

export function updateDroneProfile(
  actorId: number,
  id: number,
  input: Partial<DroneProfileInput>,
): DroneProfile {
  return getDb().transaction((tx) => {
    const before = requireDroneProfile(id, tx)
    if (input.name !== undefined) refuseDuplicate(input.name, id, tx)
    const after = tx
      .update(droneProfiles)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(droneProfiles.id, id))
      .returning()
      .get()!
    const onlyActive = Object.keys(input).length === 1 && 'isActive' in input
    const action = onlyActive ? (input.isActive ? 'drone.activate' : 'drone.deactivate') : 'drone.update'
    recordAudit({ actorId, action, entityType: 'drone_profile', entityId: id, before, after }, tx)
    return after
  })
}

/** Stored project plans keep their drone's figures (copied in), so deleting a profile never changes them. */
export function deleteDroneProfile(actorId: number, id: number): DroneProfile {
  return getDb().transaction((tx) => {
    const before = requireDroneProfile(id, tx)
    tx.delete(droneProfiles).where(eq(droneProfiles.id, id)).run()
    recordAudit({ actorId, action: 'drone.delete', entityType: 'drone_profile', entityId: id, before }, tx)
    return before
  })
}
