/**
 * Airspace as the admin manages it: KML upload, clear all, load the RSA dataset and the
 * zone list. Audited. Storage and the colour → kind/fee mapping belong to the airspace
 * domain (app/domain/airspace); this module only orchestrates them.
 */
import {
  clearZones,
  countZones,
  insertZones,
  loadRsaAirspace,
  type NewZone,
} from '#app/domain/airspace/airspace.server.ts'
import type { KmlPlacemark } from '#app/domain/airspace/kml-parse.server.ts'
import { classifyKmlPlacemark } from '#app/domain/airspace/zone-kinds.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { airspaceZones } from '#db/schema.ts'
import { count, desc, eq } from 'drizzle-orm'

const ZONES_SHOWN_FIRST = 5

/** Stores the parsed placemarks as zones (kind and fee by zone-kinds), all or nothing; returns how many. */
export function storeKmlZones(actorId: number, fileName: string, placemarks: KmlPlacemark[]) {
  const zones: NewZone[] = placemarks.map((p) => {
    const kind = classifyKmlPlacemark({ name: p.name, fill: p.color, stroke: p.color, styleUrl: p.styleName })
    return {
      zoneName: p.name,
      zoneType: kind.zoneType,
      color: kind.color,
      aviationFee: kind.aviationFee,
      polygon: p.geometry,
      source: 'kml',
      lowerIsSurface: kind.lowerIsSurface,
      requiresApproval: kind.requiresApproval,
    }
  })
  return auditedZoneChange(actorId, 'airspace.upload-kml', (tx) => {
    const inserted = insertZones(zones, tx)
    const names = zones.slice(0, 50).map((z) => z.zoneName)
    return { result: inserted, after: { fileName, zonesProcessed: inserted, names } }
  })
}

export function clearAllZones(actorId: number) {
  return auditedZoneChange(actorId, 'airspace.clear', (tx) => {
    const removed = clearZones(tx)
    return { result: removed, before: { zones: removed }, after: { zones: 0 } }
  })
}

/** Replaces every zone with the shipped national dataset. */
export function loadRsaAirspaceByAdmin(actorId: number): { inserted: number } {
  return auditedZoneChange(actorId, 'airspace.load-rsa', (tx) => {
    const before = countZones(tx)
    const result = loadRsaAirspace(tx)
    return { result, before: { zones: before }, after: { zones: result.inserted } }
  })
}

/** Runs a change to the zones and records it in the audit log, in one transaction. */
function auditedZoneChange<T>(
  actorId: number,
  action: string,
  change: (tx: DbOrTx) => { result: T; before?: unknown; after: unknown },
): T {
  return getDb().transaction((tx) => {
    const { result, before, after } = change(tx)
    recordAudit({ actorId, action, entityType: 'airspace_zones', before, after }, tx)
    return result
  })
}

export function listZonesForAdmin({ all = false }: { all?: boolean } = {}, db: DbOrTx = getDb()) {
  const total =
    db.select({ n: count() }).from(airspaceZones).where(eq(airspaceZones.isActive, true)).get()?.n ?? 0
  const query = db
    .select({
      id: airspaceZones.id,
      zoneName: airspaceZones.zoneName,
      zoneType: airspaceZones.zoneType,
      color: airspaceZones.color,
      aviationFee: airspaceZones.aviationFee,
      source: airspaceZones.source,
      uploadedAt: airspaceZones.uploadedAt,
    })
    .from(airspaceZones)
    .where(eq(airspaceZones.isActive, true))
    .orderBy(desc(airspaceZones.uploadedAt), desc(airspaceZones.id))
  return { zones: all ? query.all() : query.limit(ZONES_SHOWN_FIRST).all(), total }
}

/** GET /api/admin/airspace/zones: every active zone, polygon as a GeoJSON object. */
export function listZonesForApi() {
  return getDb()
    .select()
    .from(airspaceZones)
    .where(eq(airspaceZones.isActive, true))
    .orderBy(desc(airspaceZones.uploadedAt), desc(airspaceZones.id))
    .all()
    .map((z) => ({
      id: z.id,
      zoneName: z.zoneName,
      zoneType: z.zoneType,
      color: z.color,
      aviationFee: z.aviationFee,
      polygon: JSON.parse(z.polygon) as unknown,
      source: z.source,
      uploadedAt: z.uploadedAt,
      isActive: z.isActive,
    }))
}
