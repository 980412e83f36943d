import { booleanPointInPolygon, point, polygon } from '@turf/turf'
import type { LatLng } from '#app/domain/geometry/areas.ts'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { altitudeFromGsdCm, footprintM, gsdCmFromAltitude, lineSpacingM, triggerDistanceM } from './camera.ts'
import { localPlane } from './local-plane.ts'
import { MAX_ALTITUDE_AGL_M, planSurvey, type SurveyDrone } from './plan.ts'

// The 1-inch camera commonly published for the Phantom 4 Pro.
const P4P: SurveyDrone = {
  sensorWidthMm: 13.2,
  sensorHeightMm: 8.8,
  focalLengthMm: 8.8,
  imageWidthPx: 5472,
  imageHeightPx: 3648,
}
const ORIGIN: LatLng = { latitude: -33.9, longitude: 18.6 }
const plane = localPlane(ORIGIN)
const metres = (points: Array<[number, number]>) => points.map(([x, y]) => plane.toLatLng([x, y]))

describe('camera geometry (worked example)', () => {
  it('gives 2.741 cm/px, a 150 × 100 m footprint, 45 m lines and 30 m shots at 100 m and 70/70 %', () => {
    const gsd = gsdCmFromAltitude(P4P, 100)
    expect(gsd).toBeCloseTo(2.741, 3)
    const fp = footprintM(P4P, gsd)
    expect(fp.sideM).toBeCloseTo(150, 6)
    expect(fp.frontM).toBeCloseTo(100, 6)
    expect(lineSpacingM(fp.sideM, 70)).toBeCloseTo(45, 6)
    expect(triggerDistanceM(fp.frontM, 70)).toBeCloseTo(30, 6)
    expect(triggerDistanceM(fp.frontM, 70) / 5).toBeCloseTo(6, 6)
    expect(altitudeFromGsdCm(P4P, 2)).toBeCloseTo(72.96, 2)
  })
})

describe('planSurvey', () => {
  const rectangle = {
    coordinates: metres([
      [0, 0],
      [600, 0],
      [600, 400],
      [0, 400],
    ]),
  }
  /** The worked example's settings over the rectangle. */
  const workedExample = { areas: [rectangle], drone: P4P, altitudeM: 100, frontOverlap: 70, sideOverlap: 70 }
  /** A second area 2 km east of the rectangle. */
  const farArea = {
    coordinates: metres([
      [2000, 0],
      [2300, 0],
      [2300, 200],
      [2000, 200],
    ]),
  }

  it('flies a 600 × 400 m rectangle in 9 lines, 5,940 m and 198 photos (worked example)', () => {
    const plan = planSurvey({ ...workedExample, speedMs: 5, turnaroundM: 10 })
    expect(plan.gsdCm).toBe(2.74)
    expect(plan.lineSpacingM).toBe(45)
    expect(plan.triggerDistanceM).toBe(30)
    expect(plan.lines).toHaveLength(9)
    expect(plan.pathLengthM).toBeCloseTo(5940, 0)
    expect(plan.photoCount).toBe(198)
    expect(plan.perArea[0]!.angleDeg).toBe(90) // along the long (east–west) side
    // 19.8 min of legs, plus the climb/descent and the transit from the centre.
    expect(plan.flightTimeS).toBeGreaterThan(1188)
    const transit = plan.flightTimeS - 1188 - (2 * 100) / 3
    expect(transit).toBeGreaterThan(0)
    expect(transit * 5).toBeLessThan(2 * Math.hypot(310, 200) + 1)
    expect(plan.batteries).toBe(Math.ceil(plan.flightTimeS / (25 * 60 * 0.8)))
    expect(plan.warnings).toEqual([])
  })

  it('reverses every second line (lawn-mower)', () => {
    const plan = planSurvey(workedExample)
    const dir = plan.lines.map((l) => Math.sign(l.coordinates[1]!.longitude - l.coordinates[0]!.longitude))
    expect(dir).toEqual(dir.map((_, i) => (i % 2 === 0 ? dir[0] : -dir[0]!)))
  })

  it('splits lines at a notch instead of bridging it', () => {
    // A U: 300 m wide, a 100 m wide notch 250 m deep from the top.
    const u = {
      coordinates: metres([
        [0, 0],
        [300, 0],
        [300, 300],
        [200, 300],
        [200, 50],
        [100, 50],
        [100, 300],
        [0, 300],
      ]),
    }
    const plan = planSurvey({ areas: [u], drone: P4P, altitudeM: 40, angleDeg: 90 })
    const inNotch = plan.lines.filter((l) => {
      const [a] = l.coordinates.map((c) => plane.toXY(c))
      return a![1] > 60
    })
    expect(inNotch.length).toBeGreaterThan(0)
    for (const line of inNotch) {
      const xs = line.coordinates.map((c) => plane.toXY(c)[0]).sort((a, b) => a - b)
      expect(xs[1]! <= 100.05 || xs[0]! >= 199.95).toBe(true)
    }
  })

  it('leaves out a hole', () => {
    const area = {
      coordinates: metres([
        [0, 0],
        [400, 0],
        [400, 400],
        [0, 400],
      ]),
      holes: [
        metres([
          [150, 150],
          [250, 150],
          [250, 250],
          [150, 250],
        ]),
      ],
    }
    const plan = planSurvey({ areas: [area], drone: P4P, altitudeM: 40, angleDeg: 0 })
    for (const line of plan.lines) {
      const [a, b] = line.coordinates.map((c) => plane.toXY(c))
      const x = a![0]
      if (x > 150 && x < 250)
        expect(Math.max(a![1], b![1]) <= 150.05 || Math.min(a![1], b![1]) >= 249.95).toBe(true)
    }
    const withoutHole = planSurvey({
      areas: [{ coordinates: area.coordinates }],
      drone: P4P,
      altitudeM: 40,
      angleDeg: 0,
    })
    expect(plan.lines.length).toBeGreaterThan(withoutHole.lines.length)
  })

  it('gives each area its own grid and adds the areas up', () => {
    const one = planSurvey({ areas: [rectangle], drone: P4P, gsdCm: 2 })
    const two = planSurvey({ areas: [rectangle, farArea], drone: P4P, gsdCm: 2 })
    expect(two.lines.some((l) => l.areaIndex === 1)).toBe(true)
    expect(two.photoCount).toBeGreaterThan(one.photoCount)
    expect(
      Math.abs(two.flightTimeS - two.perArea[0]!.flightTimeS - two.perArea[1]!.flightTimeS),
    ).toBeLessThanOrEqual(1)
    expect(two.altitudeM).toBe(73)
  })

  it('flies several areas as one mission: launch → area 1 → area 2 → launch, one climb and one descent', () => {
    const two = planSurvey({ areas: [rectangle, farArea], drone: P4P, gsdCm: 2, speedMs: 5 })
    // The route the files carry, from the launch point and back to it.
    const points = [two.home, ...two.perArea.flatMap((a) => a.route.map((r) => r.point)), two.home]
    let length = 0
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [plane.toXY(points[i - 1]!), plane.toXY(points[i]!)]
      length += Math.hypot(b[0] - a[0], b[1] - a[1])
    }
    expect(two.missionLengthM).toBeCloseTo(length, 0)
    expect(Math.abs(two.flightTimeS - (length / 5 + (2 * two.altitudeM) / 3))).toBeLessThanOrEqual(1)
    // Each transect is flown as turnaround, entry, exit, turnaround.
    expect(two.perArea[0]!.route.map((r) => r.kind).slice(0, 4)).toEqual([
      'turnaround',
      'entry',
      'exit',
      'turnaround',
    ])
    expect(two.perArea.reduce((n, a) => n + a.route.length, 0)).toBe(4 * two.lines.length)
  })

  it('warns above 120 m, for too fast a trigger and for an airspace zone', () => {
    const high = planSurvey({ areas: [rectangle], drone: P4P, gsdCm: 4 })
    expect(high.altitudeM).toBeGreaterThan(MAX_ALTITUDE_AGL_M)
    expect(high.warnings[0]).toMatch(/above the 120 m \(400 ft\) AGL limit/)
    const fast = planSurvey({
      areas: [rectangle],
      drone: { ...P4P, minTriggerIntervalS: 2 },
      gsdCm: 1,
      frontOverlap: 85,
      speedMs: 12,
    })
    expect(fast.warnings.some((w) => w.includes("camera's minimum of 2 s"))).toBe(true)
    const zoned = planSurvey({ areas: [rectangle], drone: P4P, gsdCm: 2, airspaceZones: ['FACT CTR'] })
    expect(zoned.warnings).toContain(
      'The survey area lies within the FACT CTR airspace zone: approval is needed before the flight',
    )
  })

  it('refuses a spacing so small the grid would explode', () => {
    const huge = {
      coordinates: metres([
        [0, 0],
        [50000, 0],
        [50000, 50000],
        [0, 50000],
      ]),
    }
    expect(() => planSurvey({ areas: [huge], drone: P4P, gsdCm: 0.1, sideOverlap: 90 })).toThrow(
      /too many lines/,
    )
  })

  it('counts the batteries from the drone profile', () => {
    const drone = { ...P4P, flightTimePerBatteryMin: 10, usableBatteryShare: 0.5 }
    const plan = planSurvey({ ...workedExample, drone, speedMs: 5 })
    expect(plan.batteries).toBe(Math.ceil(plan.flightTimeS / 300))
  })
})

function distanceToRing([px, py]: readonly [number, number], ring: Array<[number, number]>) {
  let best = Infinity
  ring.forEach(([ax, ay], i) => {
    const [bx, by] = ring[(i + 1) % ring.length]!
    const len2 = (bx - ax) ** 2 + (by - ay) ** 2
    const t = len2 ? Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2)) : 0
    best = Math.min(best, Math.hypot(px - ax - t * (bx - ax), py - ay - t * (by - ay)))
  })
  return best
}

// Star-shaped polygons (often concave) of 120–900 m around the origin.
const starPolygon = fc
  .array(
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 120, max: 900, noNaN: true })),
    { minLength: 3, maxLength: 14 },
  )
  .map((spokes) => {
    const angles = spokes.map(([a], i) => ((i + a) / spokes.length) * 2 * Math.PI)
    return spokes.map(([, r], i) => [r * Math.cos(angles[i]!), r * Math.sin(angles[i]!)] as [number, number])
  })

describe('planSurvey properties over random polygons', () => {
  const options = { numRuns: 150 }
  const settings = fc.record({
    gsdCm: fc.double({ min: 1, max: 5, noNaN: true }),
    sideOverlap: fc.integer({ min: 50, max: 85 }),
    frontOverlap: fc.integer({ min: 50, max: 85 }),
    angleDeg: fc.option(fc.double({ min: -180, max: 180, noNaN: true }), { nil: undefined }),
  })

  type Settings = typeof settings extends fc.Arbitrary<infer T> ? T : never
  /** A property over random star polygons (rings in metres) and settings, given each one's plan. */
  const planProperty = (
    name: string,
    check: (plan: ReturnType<typeof planSurvey>, s: Settings, ring: [number, number][]) => void,
  ) =>
    it(name, () => {
      fc.assert(
        fc.property(starPolygon, settings, (ring, s) => {
          check(planSurvey({ areas: [{ coordinates: metres(ring) }], drone: P4P, ...s }), s, ring)
        }),
        options,
      )
    })

  planProperty('keeps every transect inside its area', (plan, _s, ring) => {
    const coordinates = metres(ring)
    const shape = polygon([[...coordinates, coordinates[0]!].map((c) => [c.longitude, c.latitude])])
    for (const line of plan.lines) {
      const [a, b] = line.coordinates as [LatLng, LatLng]
      for (const f of [0.02, 0.25, 0.5, 0.75, 0.98]) {
        const p = point([
          a.longitude + f * (b.longitude - a.longitude),
          a.latitude + f * (b.latitude - a.latitude),
        ])
        // Output is rounded to 1e-7° (about 1 cm): allow that much at the boundary.
        const inside =
          booleanPointInPolygon(p, shape) ||
          distanceToRing(
            plane.toXY({ latitude: p.geometry.coordinates[1]!, longitude: p.geometry.coordinates[0]! }),
            ring,
          ) < 0.03
        expect(inside).toBe(true)
      }
    }
  })

  planProperty('spaces the lines by side footprint × (1 − side overlap)', (plan, s) => {
    const spacing = lineSpacingM(footprintM(P4P, s.gsdCm).sideM, s.sideOverlap)
    const az = (plan.perArea[0]!.angleDeg * Math.PI) / 180
    const across = (c: LatLng) => {
      const [x, y] = plane.toXY(c)
      return x * Math.cos(az) - y * Math.sin(az)
    }
    // Pieces of one line share an offset (up to the 1 cm rounding of the output).
    const offsets: number[] = []
    for (const o of plan.lines.map((l) => across(l.coordinates[0]!)).sort((a, b) => a - b)) {
      if (!offsets.length || o - offsets[offsets.length - 1]! > 0.1) offsets.push(o)
    }
    for (let i = 1; i < offsets.length; i++) expect(offsets[i]! - offsets[i - 1]!).toBeCloseTo(spacing, 1)
  })

  planProperty('takes about path ÷ trigger photos (within one line’s worth)', (plan, s) => {
    const trigger = triggerDistanceM(footprintM(P4P, s.gsdCm).frontM, s.frontOverlap)
    if (plan.lines.length === 0) {
      expect(plan.photoCount).toBe(0)
      return
    }
    const longest = Math.max(
      ...plan.lines.map((l) => {
        const [a, b] = l.coordinates.map((c) => plane.toXY(c))
        return Math.hypot(b![0] - a![0], b![1] - a![1]) + 20 // with both turnarounds
      }),
    )
    expect(Math.abs(plan.photoCount - plan.pathLengthM / trigger)).toBeLessThanOrEqual(
      Math.ceil(longest / trigger),
    )
  })
})
