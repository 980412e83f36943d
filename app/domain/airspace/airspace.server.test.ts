import fs from 'node:fs'
import { booleanPointInPolygon, point } from '@turf/turf'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { airspaceZones } from '#db/schema.ts'
import { sampleZone } from '#tests/helpers/airspace-data.ts'
import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'

import {
  checkFlightArea,
  clearZones,
  countZones,
  insertZones,
  listActiveZones,
  loadRsaAirspace,
  RSA_AIRSPACE_PATH,
} from './airspace.server.ts'
import { ZA_AERODROMES } from './za-aerodromes.ts'
import { APPROVAL_WARNING, ZONE_TYPE_COLORS } from './zone-kinds.ts'

/** A square of `size` degrees with its south-west corner at (lat, lng). */
const box = (lat: number, lng: number, size = 0.01): SurveyArea => ({
  coordinates: [
    { latitude: lat, longitude: lng },
    { latitude: lat, longitude: lng + size },
    { latitude: lat + size, longitude: lng + size },
    { latitude: lat + size, longitude: lng },
  ],
})

describe('loadRsaAirspace', () => {
  test('loads the 255 distinct zones (the PAPM duplicate skipped) and replaces on reload', () => {
    insertZones([sampleZone('Old KML zone')])
    expect(loadRsaAirspace()).toEqual({ inserted: 255 })
    expect(loadRsaAirspace()).toEqual({ inserted: 255 })
    expect(countZones()).toBe(255)
    const names = getDb()
      .select({ name: airspaceZones.zoneName })
      .from(airspaceZones)
      .all()
      .map((r) => r.name)
    expect(names).not.toContain('Old KML zone')
    expect(names).not.toContain('CTR PAPM 122.00')
    expect(names).toContain('CTR FAPM 122.00')
  })

  test('types, colours and fees follow the product rules for airspace', () => {
    loadRsaAirspace()
    const zone = (name: string) =>
      getDb().select().from(airspaceZones).where(eq(airspaceZones.zoneName, name)).get()!
    expect(zone('CTR FACT 118.10')).toMatchObject({
      zoneType: 'CTR',
      color: ZONE_TYPE_COLORS.CTR,
      aviationFee: 85000,
      source: 'rsa',
      designator: 'FACT',
      lowerIsSurface: true,
      requiresApproval: false,
    })
    // A TMA starts thousands of feet up: shown, no fee.
    expect(zone('TMA FAOR')).toMatchObject({
      zoneType: 'TMA',
      color: ZONE_TYPE_COLORS.TMA,
      aviationFee: 0,
      lowerIsSurface: false,
    })
    expect(zone('FAP64 : PELINDABA')).toMatchObject({
      zoneType: 'Prohibited',
      aviationFee: 85000,
      requiresApproval: true,
    })
    expect(zone('FAD29 : BEAUFORT WEST GENERAL FLYING AREA')).toMatchObject({
      zoneType: 'Danger',
      aviationFee: 0,
      requiresApproval: false,
    })
    // Restricted from 1500 ft AGL: no fee, no warning.
    expect(zone('FAR45 A : LANGEBAANWEG MILITARY FLYING AREA')).toMatchObject({
      zoneType: 'Restricted',
      aviationFee: 0,
      requiresApproval: false,
    })
  })

  test('the shipped copy keeps the attribution and "not for navigation"', () => {
    const dataset = JSON.parse(fs.readFileSync(RSA_AIRSPACE_PATH, 'utf8')) as {
      metadata: { license: string; sourceRepo: string }
    }
    expect(dataset.metadata.license).toMatch(/NOT FOR NAVIGATION/)
    expect(dataset.metadata.sourceRepo).toBe('https://github.com/XCSoar/xcsoar-data-content')
  })
})

describe('checkFlightArea against the national dataset', () => {
  beforeEach(() => {
    loadRsaAirspace()
  })

  test('next to Cape Town International: CTR fee R850, orange, approval warning (aerodrome within 10 km)', () => {
    const result = checkFlightArea([box(-33.99, 18.62)])
    expect(result).toMatchObject({
      intersectsZone: true,
      zoneName: 'CTR FACT 118.10',
      zoneType: 'CTR',
      color: ZONE_TYPE_COLORS.CTR,
      aviationFee: 85000,
      aviationFeeRands: 850,
      warnings: [APPROVAL_WARNING],
    })
    expect(result.nearbyAerodromes.map((a) => a.icao)).toEqual(['FACT'])
    // The airways and TMA sectors overhead are listed with no fee.
    const names = result.zones.map((z) => z.zoneName)
    expect(names).toEqual(expect.arrayContaining(['CTR FACT 118.10', 'TMA FACT  A', 'AWY A402']))
    expect(result.zones.find((z) => z.zoneName === 'AWY A402')?.aviationFee).toBe(0)
    expect(result.zones[0].zoneName).toBe('CTR FACT 118.10')
  })

  test('in the Karoo: only the Beaufort West danger area, R0, no warning', () => {
    const result = checkFlightArea([box(-32.6, 22.6)])
    expect(result.zones.map((z) => z.zoneName)).toEqual(['FAD29 : BEAUFORT WEST GENERAL FLYING AREA'])
    expect(result).toMatchObject({ intersectsZone: true, zoneType: 'Danger', aviationFee: 0, warnings: [] })
  })

  test('Pelindaba prohibited area: R850 and the approval warning', () => {
    const result = checkFlightArea([box(-25.8, 27.92)])
    expect(result).toMatchObject({
      zoneName: 'FAP64 : PELINDABA',
      zoneType: 'Prohibited',
      aviationFee: 85000,
      warnings: [APPROVAL_WARNING],
    })
  })

  test('open country: nothing', () => {
    const result = checkFlightArea([box(-31.0, 19.5)])
    expect(result).toEqual({
      intersectsZone: false,
      zoneName: null,
      zoneType: null,
      color: null,
      aviationFeeRands: 0,
      aviationFee: 0,
      zones: [],
      nearbyAerodromes: [],
      warnings: [],
    })
  })

  test('several areas: the highest fee wins and zones are listed once', () => {
    const result = checkFlightArea([box(-32.6, 22.6), box(-33.99, 18.62), box(-33.99, 18.621)])
    expect(result.zoneName).toBe('CTR FACT 118.10')
    expect(result.aviationFee).toBe(85000)
    const ids = result.zones.map((z) => z.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(result.zones.map((z) => z.zoneName)).toContain('FAD29 : BEAUFORT WEST GENERAL FLYING AREA')
  })

  test('an area larger than a small zone that it covers completely still hits it', () => {
    // FAP60 Voortrekker Monument lies wholly inside this 0.1° box.
    const result = checkFlightArea([box(-25.82, 28.12, 0.1)])
    expect(result.zones.map((z) => z.zoneName)).toContain('FAP60 : VOORTREKKER MONUMENT')
    expect(result.warnings).toEqual([APPROVAL_WARNING])
  })
})

describe('zone changes rebuild the index', () => {
  const kmlZone = {
    zoneName: 'Test buffer',
    zoneType: 'OR Tambo Buffer',
    color: '#facc15',
    aviationFee: 15000,
    polygon: {
      type: 'Polygon' as const,
      coordinates: [
        [
          [22.5, -31.1],
          [22.7, -31.1],
          [22.7, -30.9],
          [22.5, -30.9],
          [22.5, -31.1],
        ],
      ],
    },
  }

  test('insert, deactivate behind the module’s back, clear', () => {
    clearZones()
    expect(checkFlightArea([box(-31.0, 22.6)]).intersectsZone).toBe(false)
    insertZones([kmlZone])
    expect(checkFlightArea([box(-31.0, 22.6)])).toMatchObject({
      zoneName: 'Test buffer',
      aviationFee: 15000,
      color: '#facc15',
    })
    expect(listActiveZones()).toEqual([
      expect.objectContaining({ zoneName: 'Test buffer', polygon: kmlZone.polygon }),
    ])
    // A direct update (not through this module) is caught by the table fingerprint.
    getDb().update(airspaceZones).set({ isActive: false }).run()
    expect(checkFlightArea([box(-31.0, 22.6)]).intersectsZone).toBe(false)
    expect(listActiveZones()).toEqual([])
    expect(clearZones()).toBe(1)
  })

  test('the aerodrome rule works with no zones at all', () => {
    clearZones()
    // ~5.5 km south of Upington's reference point (0.05° of latitude): warned.
    const near = checkFlightArea([box(-28.46, 21.255, 0.005)])
    expect(near.warnings).toEqual([APPROVAL_WARNING])
    expect(near.nearbyAerodromes[0]).toMatchObject({ icao: 'FAUP' })
    expect(near.nearbyAerodromes[0].distanceKm).toBeGreaterThan(5)
    expect(near.nearbyAerodromes[0].distanceKm).toBeLessThan(7)
    // ~16 km south: not warned.
    expect(checkFlightArea([box(-28.55, 21.255, 0.005)]).warnings).toEqual([])
  })
})

describe('aerodrome points', () => {
  test('each lies inside its own CTR or ATZ in the national dataset', () => {
    const dataset = JSON.parse(fs.readFileSync(RSA_AIRSPACE_PATH, 'utf8')) as {
      features: Array<{
        properties: { type: string; designator: string | null; duplicateOf: string | null }
        geometry: GeoJSON.Polygon
      }>
    }
    const withZone = new Set(
      dataset.features
        .filter((f) => ['CTR', 'ATZ'].includes(f.properties.type) && !f.properties.duplicateOf)
        .map((f) => f.properties.designator),
    )
    expect(new Set(ZA_AERODROMES.map((a) => a.icao))).toEqual(withZone)
    for (const aerodrome of ZA_AERODROMES) {
      const own = dataset.features.filter(
        (f) => f.properties.designator === aerodrome.icao && ['CTR', 'ATZ'].includes(f.properties.type),
      )
      const inside = own.some((f) =>
        booleanPointInPolygon(point([aerodrome.longitude, aerodrome.latitude]), f.geometry),
      )
      expect(inside, aerodrome.icao).toBe(true)
    }
  })
})
