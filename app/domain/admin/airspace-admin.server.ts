/**
 * Airspace as the admin manages it: KML upload, clear all, load the RSA dataset and the
 * zone list. Audited. Storage and the colour → kind/fee mapping belong to the airspace
 * domain (app/domain/airspace); this module only orchestrates them.
 */
import { bbox } from '@turf/turf'
import { count, desc, eq } from 'drizzle-orm'
import { airspaceZones } from '#db/schema.ts'
import { recordAudit } from '#app/domain/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/domain/db/db.server.ts'
import type { KmlPlacemark } from '#app/domain/airspace/kml-parse.server.ts'

export const ZONES_SHOWN_FIRST = 5

/** KML style colour/name → display type and fee (decisions.md "Airspace"). */
function kindForPlacemark(p: KmlPlacemark): { zoneType: string; aviationFee: number; color: string } {
  const text = `${p.name} ${p.styleName ?? ''}`.toLowerCase()
  const c = p.color
  const hue = c ? classifyColour(c) : null
  if (/tambo|buffer/.test(text) || hue === 'yellow') return { zoneType: 'OR Tambo Buffer', aviationFee: 15000, color: c ?? '#facc15' }
  if (/danger/.test(text) || hue === 'red') return { zoneType: 'Danger', aviationFee: 0, color: c ?? '#ef4444' }
  return { zoneType: 'Controlled', aviationFee: 85000, color: c ?? '#3b82f6' }
}

function classifyColour(hex: string): 'red' | 'yellow' | 'green' | 'blue' | null {
  const r = parseInt(hex.slice(1, 3), 16)
  const g = parseInt(hex.slice(3, 5), 16)
  const b = parseInt(hex.slice(5, 7), 16)
  if (r > 180 && g > 180 && b < 120) return 'yellow'
  if (r > 150 && g < 110 && b < 110) return 'red'
  if (g > r && g > b) return 'green'
  if (b > r && b >= g) return 'blue'
  return null
}

/** Stores the parsed placemarks as zones, all or nothing; returns how many. */
export function storeKmlZones(actorId: number, fileName: string, placemarks: KmlPlacemark[]) {
  return getDb().transaction((tx) => {
    for (const p of placemarks) {
      const kind = kindForPlacemark(p)
      const [minLng, minLat, maxLng, maxLat] = bbox(p.geometry)
      tx.insert(airspaceZones)
        .values({
          zoneName: p.name,
          zoneType: kind.zoneType,
          color: kind.color,
          aviationFee: kind.aviationFee,
          polygon: JSON.stringify(p.geometry),
          source: 'kml',
          minLng: minLng!,
          minLat: minLat!,
          maxLng: maxLng!,
          maxLat: maxLat!,
        })
        .run()
    }
    recordAudit(
      { actorId, action: 'airspace.upload-kml', entityType: 'airspace_zones', after: { fileName, zonesProcessed: placemarks.length, names: placemarks.slice(0, 50).map((p) => p.name) } },
      tx,
    )
    return placemarks.length
  })
}

export function clearAllZones(actorId: number) {
  return getDb().transaction((tx) => {
    const before = tx.select({ n: count() }).from(airspaceZones).get()?.n ?? 0
    tx.delete(airspaceZones).run()
    recordAudit({ actorId, action: 'airspace.clear', entityType: 'airspace_zones', before: { zones: before }, after: { zones: 0 } }, tx)
    return before
  })
}

export function loadRsaAirspaceByAdmin(actorId: number): { inserted: number } {
  void actorId
  throw new Error('RSA airspace loading is not available yet')
}

export function listZonesForAdmin({ all = false }: { all?: boolean } = {}, db: DbOrTx = getDb()) {
  const total = db.select({ n: count() }).from(airspaceZones).where(eq(airspaceZones.isActive, true)).get()?.n ?? 0
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
