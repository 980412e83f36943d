/**
 * Airspace zones: loading the national dataset, the admin's writes, the planner's zone
 * list and the check that prices a flight area.
 *
 * Checks use an in-memory spatial index (flatbush over zone bounding boxes) with the
 * zones' parsed geometry. The index is rebuilt when the zones change: every write here
 * bumps a version, and a cheap fingerprint of the table (count, max id, active ids)
 * catches writes made elsewhere.
 */
import fs from 'node:fs'
import path from 'node:path'
import { bbox as turfBbox } from '@turf/turf'
import { areaToPolygon, closedRing, type SurveyArea } from '#app/domain/geometry/areas.ts'
import { pointInRings, polygonsIntersect } from '#app/domain/geometry/intersects.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { airspaceZones } from '#db/schema.ts'
import { eq, sql } from 'drizzle-orm'
import Flatbush from 'flatbush'
import type { MultiPolygon, Polygon, Position } from 'geojson'

import { AERODROME_WARNING_KM, ZA_AERODROMES } from './za-aerodromes.ts'
import { APPROVAL_WARNING, classifyNationalZone, type NationalZoneProperties } from './zone-kinds.ts'

type ZoneGeometry = Polygon | MultiPolygon

export interface NewZone {
  zoneName: string
  zoneType: string
  color: string
  /** Cents. */
  aviationFee: number
  polygon: ZoneGeometry
  source?: 'rsa' | 'kml'
  designator?: string | null
  lowerFt?: number | null
  upperFt?: number | null
  lowerIsSurface?: boolean
  requiresApproval?: boolean
  isActive?: boolean
}

/** `GET /api/airspace/zones` item. */
export interface PublicZone {
  id: number
  zoneName: string
  zoneType: string
  color: string
  aviationFee: number
  polygon: ZoneGeometry
}

export interface AirspaceCheckResult {
  intersectsZone: boolean
  /** The zone with the highest fee (ties: low-level zones first, then the lower floor). */
  zoneName: string | null
  zoneType: string | null
  color: string | null
  aviationFeeRands: number
  /** Cents. */
  aviationFee: number
  /** Every active zone the areas touch, highest fee first. */
  zones: Array<{ id: number; zoneName: string; zoneType: string; aviationFee: number }>
  /** Aerodromes within 10 km of an area. */
  nearbyAerodromes: Array<{ icao: string; name: string; distanceKm: number }>
  warnings: string[]
}

// ---------------------------------------------------------------- writes

export const RSA_AIRSPACE_PATH = path.resolve(process.cwd(), 'db/data/za-airspace.geojson')

const versionKey = '__kestrelAirspaceVersion' as const
type GlobalWithVersion = typeof globalThis & { [versionKey]?: number }

/** Call after writing airspace_zones by any other route than this module. */
function bumpAirspaceZonesVersion() {
  const g = globalThis as GlobalWithVersion
  g[versionKey] = (g[versionKey] ?? 0) + 1
}

function zoneRow(zone: NewZone) {
  const [minLng, minLat, maxLng, maxLat] = turfBbox(zone.polygon)
  if (![minLng, minLat, maxLng, maxLat].every(Number.isFinite)) {
    throw new Error(`Zone "${zone.zoneName}" has no usable polygon`)
  }
  return {
    zoneName: zone.zoneName.slice(0, 255),
    zoneType: zone.zoneType.slice(0, 50),
    color: zone.color.slice(0, 20),
    aviationFee: Math.max(0, Math.round(zone.aviationFee)),
    polygon: JSON.stringify(zone.polygon),
    source: zone.source ?? 'kml',
    designator: zone.designator ?? null,
    lowerFt: zone.lowerFt ?? null,
    upperFt: zone.upperFt ?? null,
    lowerIsSurface: zone.lowerIsSurface ?? true,
    requiresApproval: zone.requiresApproval ?? false,
    isActive: zone.isActive ?? true,
    minLng,
    minLat,
    maxLng,
    maxLat,
  }
}

/** Adds zones (one transaction, a savepoint inside a caller's); returns how many. */
export function insertZones(zones: NewZone[], db: DbOrTx = getDb()): number {
  const rows = zones.map(zoneRow)
  db.transaction((tx) => {
    for (const row of rows) tx.insert(airspaceZones).values(row).run()
  })
  bumpAirspaceZonesVersion()
  return rows.length
}

/** Deletes every zone; returns how many there were. */
export function clearZones(db: DbOrTx = getDb()): number {
  const result = db.delete(airspaceZones).run()
  bumpAirspaceZonesVersion()
  return result.changes
}

interface NationalFeature {
  properties: NationalZoneProperties
  geometry: ZoneGeometry
}

/** The shipped national dataset as zones (features marked `duplicateOf` skipped). */
export function readRsaAirspaceZones(file = RSA_AIRSPACE_PATH): NewZone[] {
  const dataset = JSON.parse(fs.readFileSync(file, 'utf8')) as { features: NationalFeature[] }
  return dataset.features
    .filter((f) => !f.properties.duplicateOf)
    .map((f) => {
      const kind = classifyNationalZone(f.properties)
      return {
        zoneName: f.properties.name,
        zoneType: kind.zoneType,
        color: kind.color,
        aviationFee: kind.aviationFee,
        polygon: f.geometry,
        source: 'rsa' as const,
        designator: f.properties.designator,
        lowerFt: f.properties.lowerFt,
        upperFt: f.properties.upperFt,
        lowerIsSurface: kind.lowerIsSurface,
        requiresApproval: kind.requiresApproval,
      }
    })
}

/** 'Load RSA airspace': replaces all zones with the national dataset, in one transaction. */
export function loadRsaAirspace(db: DbOrTx = getDb(), file = RSA_AIRSPACE_PATH): { inserted: number } {
  const rows = readRsaAirspaceZones(file).map(zoneRow)
  db.transaction((tx) => {
    tx.delete(airspaceZones).run()
    for (const row of rows) tx.insert(airspaceZones).values(row).run()
  })
  bumpAirspaceZonesVersion()
  return { inserted: rows.length }
}

export function countZones(db: DbOrTx = getDb()): number {
  return db.get<{ n: number }>(sql`select count(*) as n from airspace_zones`)?.n ?? 0
}

// ---------------------------------------------------------------- reads and the index

interface PreparedZone {
  id: number
  zoneName: string
  zoneType: string
  color: string
  aviationFee: number
  lowerFt: number | null
  lowerIsSurface: boolean
  requiresApproval: boolean
  geometry: ZoneGeometry
  bbox: [number, number, number, number]
}

interface ZoneIndex {
  fingerprint: string
  zones: PreparedZone[]
  index: Flatbush | null
}

const cacheKey = '__kestrelAirspaceIndex' as const
type GlobalWithCache = typeof globalThis & { [cacheKey]?: ZoneIndex }

function fingerprint(db: DbOrTx) {
  const row = db.get<{ n: number; maxId: number; activeSum: number }>(
    sql`select count(*) as n, coalesce(max(id), 0) as maxId,
        coalesce(sum(case when is_active then id else 0 end), 0) as activeSum from airspace_zones`,
  )
  const version = (globalThis as GlobalWithVersion)[versionKey] ?? 0
  return `${version}:${row?.n}:${row?.maxId}:${row?.activeSum}`
}

function buildIndex(db: DbOrTx, print: string): ZoneIndex {
  const rows = db
    .select()
    .from(airspaceZones)
    .where(eq(airspaceZones.isActive, true))
    .orderBy(airspaceZones.id)
    .all()
  const zones: PreparedZone[] = []
  for (const row of rows) {
    let geometry: ZoneGeometry
    try {
      geometry = JSON.parse(row.polygon) as ZoneGeometry
    } catch {
      continue // an unreadable row must not break quoting
    }
    if (geometry?.type !== 'Polygon' && geometry?.type !== 'MultiPolygon') continue
    zones.push({
      id: row.id,
      zoneName: row.zoneName,
      zoneType: row.zoneType,
      color: row.color,
      aviationFee: row.aviationFee,
      lowerFt: row.lowerFt,
      lowerIsSurface: row.lowerIsSurface,
      requiresApproval: row.requiresApproval,
      geometry,
      bbox: [row.minLng, row.minLat, row.maxLng, row.maxLat],
    })
  }
  let index: Flatbush | null = null
  if (zones.length) {
    index = new Flatbush(zones.length)
    for (const zone of zones) index.add(...zone.bbox)
    index.finish()
  }
  return { fingerprint: print, zones, index }
}

function zoneIndex(db: DbOrTx): ZoneIndex {
  const g = globalThis as GlobalWithCache
  const print = fingerprint(db)
  if (g[cacheKey]?.fingerprint !== print) g[cacheKey] = buildIndex(db, print)
  return g[cacheKey]!
}

/** Changes whenever the active zones change: an ETag for the zone list. */
export function airspaceZonesVersion(db: DbOrTx = getDb()): string {
  return zoneIndex(db).fingerprint
}

/** Active zones for the planner map (`GET /api/airspace/zones`). */
export function listActiveZones(db: DbOrTx = getDb()): PublicZone[] {
  return zoneIndex(db).zones.map((z) => ({
    id: z.id,
    zoneName: z.zoneName,
    zoneType: z.zoneType,
    color: z.color,
    aviationFee: z.aviationFee,
    polygon: z.geometry,
  }))
}

// ---------------------------------------------------------------- the check

const KM_PER_DEGREE_LAT = (Math.PI / 180) * 6371

/**
 * Distance in km from a point to an area (0 inside). Local equirectangular projection
 * around the point: within the 10 km that matters the error is far below a metre,
 * and it is ~100× cheaper than turf.pointToLineDistance.
 */
function distanceToAreaKm(latitude: number, longitude: number, ring: Position[]): number {
  const kx = KM_PER_DEGREE_LAT * Math.cos((latitude * Math.PI) / 180)
  const ky = KM_PER_DEGREE_LAT
  if (pointInRings([longitude, latitude], [ring])) return 0
  let best = Infinity
  for (let i = 1; i < ring.length; i++) {
    const ax = (ring[i - 1][0] - longitude) * kx
    const ay = (ring[i - 1][1] - latitude) * ky
    const bx = (ring[i][0] - longitude) * kx
    const by = (ring[i][1] - latitude) * ky
    const dx = bx - ax
    const dy = by - ay
    const lengthSq = dx * dx + dy * dy
    const t = lengthSq === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / lengthSq))
    const d = Math.hypot(ax + t * dx, ay + t * dy)
    if (d < best) best = d
  }
  return best
}

function nearbyAerodromes(areas: SurveyArea[]) {
  const found = new Map<string, { icao: string; name: string; distanceKm: number }>()
  const padLat = AERODROME_WARNING_KM / KM_PER_DEGREE_LAT
  for (const area of areas) {
    const ring = closedRing(area.coordinates)
    let minLat = Infinity
    let maxLat = -Infinity
    let minLng = Infinity
    let maxLng = -Infinity
    for (const [lng, lat] of ring) {
      minLat = Math.min(minLat, lat)
      maxLat = Math.max(maxLat, lat)
      minLng = Math.min(minLng, lng)
      maxLng = Math.max(maxLng, lng)
    }
    const padLng = padLat / Math.max(0.1, Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180))
    for (const aerodrome of ZA_AERODROMES) {
      const { latitude: lat, longitude: lng } = aerodrome
      if (lat < minLat - padLat || lat > maxLat + padLat || lng < minLng - padLng || lng > maxLng + padLng)
        continue
      const distanceKm = distanceToAreaKm(lat, lng, ring)
      if (distanceKm > AERODROME_WARNING_KM) continue
      const prior = found.get(aerodrome.icao)
      if (!prior || distanceKm < prior.distanceKm) {
        found.set(aerodrome.icao, {
          icao: aerodrome.icao,
          name: aerodrome.name,
          distanceKm: Math.round(distanceKm * 100) / 100,
        })
      }
    }
  }
  return [...found.values()].sort((a, b) => a.distanceKm - b.distanceKm)
}

function byPriority(a: PreparedZone, b: PreparedZone) {
  return (
    b.aviationFee - a.aviationFee ||
    Number(b.lowerIsSurface) - Number(a.lowerIsSurface) ||
    (a.lowerFt ?? 0) - (b.lowerFt ?? 0) ||
    a.zoneName.localeCompare(b.zoneName)
  )
}

/**
 * Which active zones the areas touch, the highest fee and its zone, and the approval
 * warning (prohibited/restricted zone from low level, or within 10 km of an aerodrome).
 * Expects areas that passed `SurveyAreasSchema`.
 */
export function checkFlightArea(areas: SurveyArea[], db: DbOrTx = getDb()): AirspaceCheckResult {
  const { zones, index } = zoneIndex(db)
  const hit = new Set<number>()
  if (index) {
    for (const area of areas) {
      const polygon = areaToPolygon(area)
      const [minX, minY, maxX, maxY] = turfBbox(polygon)
      for (const i of index.search(minX, minY, maxX, maxY)) {
        if (!hit.has(i) && polygonsIntersect(polygon.geometry, zones[i].geometry)) hit.add(i)
      }
    }
  }
  const touched = [...hit].map((i) => zones[i]).sort(byPriority)
  const primary = touched[0] ?? null
  const aerodromes = nearbyAerodromes(areas)
  const needsApproval = touched.some((z) => z.requiresApproval) || aerodromes.length > 0
  const aviationFee = primary?.aviationFee ?? 0
  return {
    intersectsZone: touched.length > 0,
    zoneName: primary?.zoneName ?? null,
    zoneType: primary?.zoneType ?? null,
    color: primary?.color ?? null,
    aviationFeeRands: aviationFee / 100,
    aviationFee,
    zones: touched.map((z) => ({
      id: z.id,
      zoneName: z.zoneName,
      zoneType: z.zoneType,
      aviationFee: z.aviationFee,
    })),
    nearbyAerodromes: aerodromes,
    warnings: needsApproval ? [APPROVAL_WARNING] : [],
  }
}
