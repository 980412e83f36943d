/**
 * Hub terminals: create, edit, toggle active, delete. Quotes keep
 * the hub's name on the project (projects.nearest_hub) and the foreign key is set to
 * null on delete, so deleting a hub never changes a stored quote.
 */
import type { HubInput } from '#app/domain/admin/schemas.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { hubs, type Hub } from '#db/schema.ts'
import { asc, eq } from 'drizzle-orm'

export function listHubs(): Hub[] {
  return getDb().select().from(hubs).orderBy(asc(hubs.name), asc(hubs.id)).all()
}

export function findHub(id: number): Hub | null {
  return getDb().select().from(hubs).where(eq(hubs.id, id)).get() ?? null
}

function requireHub(id: number) {
  const hub = findHub(id)
  if (!hub) throw new DomainError(404, 'Hub not found')
  return hub
}

export function createHub(actorId: number, input: HubInput): Hub {
  return getDb().transaction((tx) => {
    const hub = tx.insert(hubs).values(input).returning().get()
    recordAudit({ actorId, action: 'hub.create', entityType: 'hub', entityId: hub.id, after: hub }, tx)
    return hub
  })
}

export function updateHub(actorId: number, id: number, input: Partial<HubInput>): Hub {
  const before = requireHub(id)
  return getDb().transaction((tx) => {
    const after = tx
      .update(hubs)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(hubs.id, id))
      .returning()
      .get()!
    const action =
      Object.keys(input).length === 1 && 'isActive' in input
        ? input.isActive
          ? 'hub.activate'
          : 'hub.deactivate'
        : 'hub.update'
    recordAudit({ actorId, action, entityType: 'hub', entityId: id, before, after }, tx)
    return after
  })
}

export function deleteHub(actorId: number, id: number) {
  const before = requireHub(id)
  getDb().transaction((tx) => {
    tx.delete(hubs).where(eq(hubs.id, id)).run()
    recordAudit({ actorId, action: 'hub.delete', entityType: 'hub', entityId: id, before }, tx)
  })
  return before
}
