/**
 * Worked examples, computed by hand with the default settings of ADR 010:
 * tier rates R0.06 / R0.09 / R0.18 per m², area threshold 25 000 m², local threshold
 * 30 km, R6.80 per km beyond it, local travel fee R200, VAT 15 %, base cost R1172.04.
 * All money is in cents.
 */
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import { describe, expect, test } from 'vitest'

import {
  applyRepeatDiscount,
  aviationFromCheck,
  computeInternalSplit,
  computeQuote,
  greatCircleKm,
  priceQuote,
  randToCents,
  referencePoint,
  roundHalfAwayFromZero,
  tierForDistance,
  totalAreaSqm,
  type PricingHub,
} from './quote.ts'
import { DEFAULT_PRICING_SETTINGS as settings } from './settings.ts'

const hub = { id: 7, name: 'Cape Town' }
const at = (distanceKm: number) => ({ hub, distanceKm })

describe('priceQuote: tiers and boundaries', () => {
  test('local tier, minimum price wins (10 000 m² at 12 km)', () => {
    // base = 0.06 × 25 000 = R1500 → 150 000; area price 0.06 × 10 000 = R600 < base.
    // travel R200 = 20 000; subtotal 170 000; VAT 15 % = 25 500; total 195 500.
    const q = priceQuote({ areaSqm: 10000, nearest: at(12), settings })
    expect(q).toMatchObject({
      tier: 'local',
      basePrice: 150000,
      adjustedPrice: 150000,
      travelFee: 20000,
      aviationFee: 0,
      subtotal: 170000,
      vatAmount: 25500,
      totalInCents: 195500,
      nearestHub: hub,
      distanceFromHub: 12,
      areaHectares: 1,
      noHubs: false,
    })
  })

  test('exactly 30 km is still local; the area price wins above the threshold (40 000 m²)', () => {
    // area price 0.06 × 40 000 = R2400 → 240 000 > base 150 000.
    // subtotal 240 000 + 20 000 = 260 000; VAT 39 000; total 299 000.
    const q = priceQuote({ areaSqm: 40000, nearest: at(30), settings })
    expect(q).toMatchObject({
      tier: 'local',
      basePrice: 150000,
      adjustedPrice: 240000,
      travelFee: 20000,
      subtotal: 260000,
      vatAmount: 39000,
      totalInCents: 299000,
    })
  })

  test('just over 30 km is regional (10 000 m² at 30.5 km)', () => {
    // base 0.09 × 25 000 = R2250 → 225 000 (area price R900 is less).
    // travel (30.5 − 30) × 6.80 = R3.40 → 340; subtotal 225 340; VAT 33 801; total 259 141.
    const q = priceQuote({ areaSqm: 10000, nearest: at(30.5), settings })
    expect(q).toMatchObject({
      tier: 'regional',
      basePrice: 225000,
      adjustedPrice: 225000,
      travelFee: 340,
      subtotal: 225340,
      vatAmount: 33801,
      totalInCents: 259141,
    })
  })

  test('regional with the area price winning (30 000 m² at 75 km)', () => {
    // area price 0.09 × 30 000 = R2700 → 270 000; travel 45 × 6.80 = R306 → 30 600.
    // subtotal 300 600; VAT 45 090; total 345 690.
    const q = priceQuote({ areaSqm: 30000, nearest: at(75), settings })
    expect(q).toMatchObject({
      tier: 'regional',
      basePrice: 225000,
      adjustedPrice: 270000,
      travelFee: 30600,
      subtotal: 300600,
      vatAmount: 45090,
      totalInCents: 345690,
    })
  })

  test('exactly 100 km is national (10 000 m²)', () => {
    // base 0.18 × 25 000 = R4500 → 450 000; travel 70 × 6.80 = R476 → 47 600.
    // subtotal 497 600; VAT 74 640; total 572 240.
    const q = priceQuote({ areaSqm: 10000, nearest: at(100), settings })
    expect(q).toMatchObject({
      tier: 'national',
      basePrice: 450000,
      adjustedPrice: 450000,
      travelFee: 47600,
      subtotal: 497600,
      vatAmount: 74640,
      totalInCents: 572240,
    })
  })

  test('the tier boundaries themselves', () => {
    expect(tierForDistance(0, settings)).toBe('local')
    expect(tierForDistance(30, settings)).toBe('local')
    expect(tierForDistance(30.000001, settings)).toBe('regional')
    expect(tierForDistance(99.999999, settings)).toBe('regional')
    expect(tierForDistance(100, settings)).toBe('national')
    expect(tierForDistance(1400, settings)).toBe('national')
  })

  test('the local threshold is a setting', () => {
    const wider = { ...settings, localTravelThreshold: 50 }
    expect(tierForDistance(45, wider)).toBe('local')
    // regional at 60 km: travel (60 − 50) × 6.80 = R68 → 6 800.
    expect(priceQuote({ areaSqm: 1000, nearest: at(60), settings: wider }).travelFee).toBe(6800)
  })
})

describe('priceQuote: aviation fee and rounding', () => {
  test('an airspace fee is added before VAT (controlled zone R850)', () => {
    // local, 10 000 m² at 5 km: 150 000 + aviation 85 000 + travel 20 000 = 255 000;
    // VAT 38 250; total 293 250.
    const q = priceQuote({
      areaSqm: 10000,
      nearest: at(5),
      settings,
      aviation: { aviationFee: 85000, zoneName: 'CTR FACT 118.10', zoneColor: '#f97316' },
    })
    expect(q).toMatchObject({
      aviationFee: 85000,
      airspaceZone: 'CTR FACT 118.10',
      airspaceZoneColor: '#f97316',
      subtotal: 255000,
      vatAmount: 38250,
      totalInCents: 293250,
    })
  })

  test('a half cent in the area price rounds up (41 234.25 m² local)', () => {
    // 0.06 × 41 234.25 = R2474.055 → 247 405.5 cents → 247 406.
    // subtotal 247 406 + 20 000 = 267 406; VAT 40 110.9 → 40 111; total 307 517.
    const q = priceQuote({ areaSqm: 41234.25, nearest: at(10), settings })
    expect(q).toMatchObject({
      adjustedPrice: 247406,
      subtotal: 267406,
      vatAmount: 40111,
      totalInCents: 307517,
    })
  })

  test('a half cent of VAT rounds up (41 235 m² local)', () => {
    // 0.06 × 41 235 = R2474.10 → 247 410; subtotal 267 410; VAT 40 111.5 → 40 112; total 307 522.
    const q = priceQuote({ areaSqm: 41235, nearest: at(10), settings })
    expect(q).toMatchObject({
      adjustedPrice: 247410,
      subtotal: 267410,
      vatAmount: 40112,
      totalInCents: 307522,
    })
  })

  test('travel fee is rounded to the cent (31.2345 km)', () => {
    // (31.2345 − 30) × 6.80 = R8.3946 → 839.46 cents → 839.
    expect(priceQuote({ areaSqm: 1000, nearest: at(31.2345), settings }).travelFee).toBe(839)
  })

  test('aviationFromCheck reads the check result (cents, or rands from older clients)', () => {
    expect(
      aviationFromCheck({ aviationFee: 15000, aviationFeeRands: 150, zoneName: 'B', color: '#facc15' }),
    ).toEqual({ aviationFee: 15000, zoneName: 'B', zoneColor: '#facc15' })
    expect(aviationFromCheck({ aviationFeeRands: 850, zoneName: 'C', color: null })).toEqual({
      aviationFee: 85000,
      zoneName: 'C',
      zoneColor: null,
    })
  })

  test('roundHalfAwayFromZero', () => {
    expect(roundHalfAwayFromZero(2.5)).toBe(3)
    expect(roundHalfAwayFromZero(-2.5)).toBe(-3)
    expect(roundHalfAwayFromZero(2.4999)).toBe(2)
    // 1.005 × 100 is 100.49999999999999 in binary floating point; it is half a cent.
    expect(randToCents(1.005)).toBe(101)
    expect(randToCents(0.09 * 25000)).toBe(225000)
    expect(roundHalfAwayFromZero(Number.NaN)).toBe(0)
  })
})

describe('zero quotes', () => {
  test('no active hub: everything zero and flagged', () => {
    const q = priceQuote({ areaSqm: 50000, nearest: null, settings })
    expect(q).toMatchObject({
      noHubs: true,
      nearestHub: null,
      basePrice: 0,
      adjustedPrice: 0,
      travelFee: 0,
      subtotal: 0,
      vatAmount: 0,
      totalInCents: 0,
      areaSqm: 50000,
    })
  })

  test('zero area: everything zero, not flagged as missing hubs', () => {
    const q = priceQuote({ areaSqm: 0, nearest: at(3), noHubs: false, settings })
    expect(q).toMatchObject({ noHubs: false, totalInCents: 0, basePrice: 0, nearestHub: null })
  })

  test('computeQuote with no areas is zero', () => {
    const q = computeQuote({ areas: [], hubs: [{ ...hub, latitude: -33.9, longitude: 18.4 }], settings })
    expect(q.totalInCents).toBe(0)
    expect(q.noHubs).toBe(false)
  })
})

describe('computeQuote: geometry', () => {
  // A small square of `size` degrees with its centre at (lat, lng); the centroid of
  // its four vertices is exactly the centre.
  const square = (lat: number, lng: number, size = 0.001): SurveyArea => ({
    coordinates: [
      { latitude: lat - size / 2, longitude: lng - size / 2 },
      { latitude: lat - size / 2, longitude: lng + size / 2 },
      { latitude: lat + size / 2, longitude: lng + size / 2 },
      { latitude: lat + size / 2, longitude: lng - size / 2 },
    ],
  })

  test('great-circle distance uses R = 6371 km', () => {
    // One degree of latitude = 6371 × π / 180 = 111.19492664 km.
    expect(greatCircleKm({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(
      111.19492664,
      6,
    )
    expect(greatCircleKm({ latitude: -33.9, longitude: 18.5 }, { latitude: -33.9, longitude: 18.5 })).toBe(0)
  })

  test('several areas: areas add up and the centroid of all vertices picks the hub', () => {
    const a = square(-33.9, 18.4)
    const b = square(-33.9, 18.6)
    // Mean of the 8 vertices: (−33.9, 18.5). Hubs due north of it on the same meridian:
    // Paarl-ish 0.1° away = 6371 × 0.1 × π / 180 = 11.1195 km (local);
    // another 0.5° away (55.6 km) that must lose.
    const hubs: PricingHub[] = [
      { id: 1, name: 'Far', latitude: -33.4, longitude: 18.5 },
      { id: 2, name: 'Near', latitude: -33.8, longitude: 18.5 },
    ]
    expect(referencePoint([a, b])).toEqual({
      latitude: expect.closeTo(-33.9, 9),
      longitude: expect.closeTo(18.5, 9),
    })
    const q = computeQuote({ areas: [a, b], hubs, settings })
    expect(q.nearestHub).toEqual({ id: 2, name: 'Near' })
    expect(q.distanceFromHub).toBeCloseTo(11.1195, 3)
    // Each square ≈ 111.2 m × 92.3 m ≈ 10 260 m²; the two together ≈ 20 520 m².
    expect(q.areaSqm).toBeCloseTo(totalAreaSqm([a]) + totalAreaSqm([b]), 6)
    expect(q.areaSqm).toBeGreaterThan(20300)
    expect(q.areaSqm).toBeLessThan(20700)
    // Under 25 000 m², local: the minimum R1500 + R200 travel; VAT 25 500; total 195 500.
    expect(q).toMatchObject({ tier: 'local', adjustedPrice: 150000, travelFee: 20000, totalInCents: 195500 })
  })

  test('an unfinished area (under 3 distinct points) is left out, not a crash', () => {
    const hubs = [{ id: 1, name: 'H', latitude: -33.8, longitude: 18.4 }]
    const partial = {
      coordinates: [
        { latitude: -33.9, longitude: 18.4 },
        { latitude: -33.9, longitude: 18.4 },
        { latitude: -33.91, longitude: 18.4 },
      ],
    }
    expect(computeQuote({ areas: [square(-33.9, 18.4), partial], hubs, settings })).toEqual(
      computeQuote({ areas: [square(-33.9, 18.4)], hubs, settings }),
    )
    expect(computeQuote({ areas: [partial], hubs, settings }).totalInCents).toBe(0)
  })

  test('a closed ring gives the same quote as an open one', () => {
    const open = square(-33.9, 18.4)
    const closed = { coordinates: [...open.coordinates, open.coordinates[0]] }
    const hubs = [{ id: 1, name: 'H', latitude: -33.8, longitude: 18.4 }]
    expect(computeQuote({ areas: [closed], hubs, settings })).toEqual(
      computeQuote({ areas: [open], hubs, settings }),
    )
  })

  test('inactive hubs are ignored, even when nearer', () => {
    const hubs: PricingHub[] = [
      { id: 1, name: 'Closed depot', latitude: -33.9, longitude: 18.4, isActive: false },
      { id: 2, name: 'Open hub', latitude: -33.4, longitude: 18.4 },
    ]
    const q = computeQuote({ areas: [square(-33.9, 18.4)], hubs, settings })
    expect(q.nearestHub).toEqual({ id: 2, name: 'Open hub' })
    // 0.5° of latitude = 55.597 km → regional: R2250 + (55.597 − 30) × 6.80.
    expect(q.tier).toBe('regional')
    expect(q.travelFee).toBe(randToCents((q.distanceFromHub - 30) * 6.8))
  })

  test('only inactive hubs: zero quote and "No hubs configured"', () => {
    const q = computeQuote({
      areas: [square(-33.9, 18.4)],
      hubs: [{ id: 1, name: 'Closed', latitude: -33.9, longitude: 18.4, isActive: false }],
      settings,
    })
    expect(q).toMatchObject({ noHubs: true, totalInCents: 0, nearestHub: null })
    expect(q.areaSqm).toBeGreaterThan(0)
  })
})

describe('internal split', () => {
  test('margin, 30/70 shares and payout (local, R1500, travel R200, aviation R850)', () => {
    // margin 150 000 − 117 204 = 32 796; platform 30 % = 9 838.8 → 9 839;
    // operator 32 796 − 9 839 = 22 957; payout 22 957 + 20 000 + 85 000 = 127 957.
    expect(computeInternalSplit({ adjustedPrice: 150000, travelFee: 20000, aviationFee: 85000 })).toEqual({
      baseCost: 117204,
      profitMargin: 32796,
      platformShare: 9839,
      operatorShare: 22957,
      operatorPayout: 127957,
    })
  })

  test('margin never goes below zero', () => {
    // adjusted R1000 < base cost: margin 0, shares 0, payout = travel only.
    expect(computeInternalSplit({ adjustedPrice: 100000, travelFee: 20000, aviationFee: 0 })).toEqual({
      baseCost: 117204,
      profitMargin: 0,
      platformShare: 0,
      operatorShare: 0,
      operatorPayout: 20000,
    })
  })

  test('the shares always add up to the margin', () => {
    // margin 5: platform 1.5 → 2, operator 3.
    const split = computeInternalSplit({ adjustedPrice: 117209, travelFee: 0, aviationFee: 0 })
    expect(split).toMatchObject({ profitMargin: 5, platformShare: 2, operatorShare: 3 })
  })
})

describe('applyRepeatDiscount', () => {
  // 40 000 m² local: survey 0.06 × 40 000 = R2400, travel R200 → subtotal 260 000, VAT 39 000.
  const figures = priceQuote({ areaSqm: 40000, nearest: at(12), settings })

  test('off the survey price only, before VAT; VAT and total worked out again', () => {
    const discounted = applyRepeatDiscount(figures, 12.5, 15)
    expect(discounted).toMatchObject({
      adjustedPrice: 240000,
      travelFee: 20000,
      repeatDiscountPercent: 12.5,
      repeatDiscount: 30000,
      subtotal: 230000,
      vatAmount: 34500,
      totalInCents: 264500,
    })
  })

  test('whole cents; 0 % changes nothing', () => {
    // 240 000 × 0,0125 % = 30 cents; 100 001 × 0,5 % = 500,005 → 500.
    expect(applyRepeatDiscount(figures, 0.0125, 15).repeatDiscount).toBe(30)
    expect(applyRepeatDiscount({ ...figures, adjustedPrice: 100001 }, 0.5, 15).repeatDiscount).toBe(500)
    expect(applyRepeatDiscount(figures, 0, 15)).toEqual({
      ...figures,
      repeatDiscountPercent: 0,
      repeatDiscount: 0,
    })
  })

  test('the split: the discount comes out of the margin, not the operator payout of fees', () => {
    const discounted = applyRepeatDiscount(figures, 50, 15)
    const split = computeInternalSplit(discounted)
    expect(split.profitMargin).toBe(240000 - 120000 - 117204)
    expect(split.operatorPayout).toBe(split.operatorShare + 20000)
  })
})
