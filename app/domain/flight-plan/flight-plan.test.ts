import { canPay, canPlan, canRepeat, statusLabel } from '#app/domain/projects/status.ts'
import { describe, expect, test } from 'vitest'

import {
  flightPlanAreas,
  flightPlanView,
  isValidScreenshot,
  quotedFlightPlan,
  readFlightPlan,
  summariseFlightPlan,
  withFlightPattern,
  withoutScreenshot,
  type FlightPlan,
} from './flight-plan.ts'
import { summariseQuote } from './quote-summary.ts'

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

const plan: FlightPlan = {
  projectName: 'Vineyard',
  address: 'Stellenbosch',
  projectAddress: 'Stellenbosch',
  coordinates: { lat: -33.93, lng: 18.86 },
  projectType: 'agricultural-mapping',
  deadline: null,
  requirements: null,
  areas: [
    {
      areaNumber: 1,
      area: 30000,
      areaHectares: 3,
      coordinates: [
        { pointNumber: 1, latitude: -33.94, longitude: 18.86 },
        { pointNumber: 2, latitude: -33.93, longitude: 18.86 },
        { pointNumber: 3, latitude: -33.93, longitude: 18.87 },
      ],
      pilotInstructions: { flightPattern: 'Grid', returnToBase: 'At 30 %', boundaryPoints: 3 },
    },
  ],
  totalArea: 30000,
  totalAreaHectares: 3,
  pricing: {
    totalInCents: 287500,
    totalPrice: 287500,
    nearestHub: 'Cape Town',
    nearestHubId: 1,
    distanceFromHub: 38.04,
    basePrice: 225000,
    adjustedPrice: 270000,
    travelFee: 5467,
    aviationFee: 0,
    airspaceZone: null,
    airspaceZoneColor: null,
    subtotal: 275467,
    vatAmount: 41320,
    warnings: [],
  },
  airspaceZone: null,
  surveyInstructions: {
    totalSurveyAreas: 1,
    recommendedFlightHeight: '120 m AGL',
    windConditions: 'Wind under 10 m/s',
    equipment: 'Drone',
  },
  quotedAt: '2026-11-21T10:00:00.000Z',
  validUntil: '2026-12-21T10:00:00.000Z',
}

describe('isValidScreenshot', () => {
  test('accepts a data:image URL with decodable base64 only', () => {
    expect(isValidScreenshot(PNG)).toBe(true)
    expect(isValidScreenshot('data:image/png;base64,@@@@')).toBe(false)
    expect(isValidScreenshot('data:text/html;base64,PGh0bWw+PC9odG1sPg==')).toBe(false)
    expect(isValidScreenshot('https://example.com/a.png')).toBe(false)
    expect(isValidScreenshot(undefined)).toBe(false)
  })
})

describe('flightPlanView', () => {
  test('reads a stored plan (object or JSON text) for display', () => {
    const view = flightPlanView(JSON.stringify({ ...plan, screenshot: PNG }))!
    expect(view.areas[0]).toMatchObject({
      areaNumber: 1,
      area: 30000,
      flightPattern: 'Grid',
      returnToBase: 'At 30 %',
    })
    expect(view.areas[0]!.points).toHaveLength(3)
    expect(view).toMatchObject({
      totalArea: 30000,
      totalAreaHectares: 3,
      recommendedFlightHeight: '120 m AGL',
      hasScreenshot: true,
    })
    expect(flightPlanView(plan)?.hasScreenshot).toBe(false)
  })

  test('fills what an older or hand-made plan leaves out', () => {
    const view = flightPlanView({
      areas: [
        {
          coordinates: plan.areas[0]!.coordinates.map(({ latitude, longitude }) => ({ latitude, longitude })),
          pilotInstructions: { returnToBase: true },
        },
      ],
    })!
    expect(view.areas[0]).toMatchObject({ areaNumber: 1, returnToBase: 'Yes' })
    expect(view.areas[0]!.points[2]!.pointNumber).toBe(3)
  })

  test('null for anything that cannot be shown', () => {
    expect(flightPlanView('{not json')).toBeNull()
    expect(flightPlanView({ areas: [] })).toBeNull()
    expect(flightPlanView({ areas: [{ coordinates: [{ latitude: 'x' }] }] })).toBeNull()
    expect(quotedFlightPlan('{"areas":[]}')).toBeNull()
  })
})

describe('summariseQuote', () => {
  test('has every item of the Project Quote dialog', () => {
    const summary = summariseQuote({ id: 7, name: 'Vineyard', isPaid: false }, plan)
    expect(summary).toMatchObject({
      projectId: 7,
      totalArea: 30000,
      totalAreaHectares: 3,
      totalInCents: 287500,
      subtotal: 275467,
      vatAmount: 41320,
      surveyAreas: 1,
      flightTimeMinutes: 15,
      validUntil: '2026-12-21T10:00:00.000Z',
      distanceFromHub: 38,
    })
    expect(summary.breakdown.map((l) => l.cents)).toEqual([270000, 5467, 0])
    // The one number format: a decimal comma and a non-breaking space before the unit.
    expect(summary.breakdown[1]!.note).toBe('From Cape Town (38,0\u00a0km)')
    expect(summary.breakdown.reduce((s, l) => s + l.cents, 0)).toBe(summary.subtotal)
    expect(summary.delivery).toBe('Delivery 5 to 7 business days after data collection')
  })

  test('a repeat quote lists its discount as a negative line that the subtotal includes', () => {
    const discounted = {
      ...plan,
      pricing: { ...plan.pricing, repeatDiscountPercent: 10, repeatDiscount: 27000, subtotal: 248467 },
    }
    const summary = summariseQuote({ id: 7, name: 'Vineyard', isPaid: false }, discounted)
    expect(summary.breakdown.at(-1)).toEqual({
      label: 'Repeat discount (10%)',
      cents: -27000,
      note: 'Off the survey price',
    })
    expect(summary.breakdown.reduce((s, l) => s + l.cents, 0)).toBe(summary.subtotal)
  })
})

describe('project status rules', () => {
  test('labels, Pay Now and re-planning', () => {
    expect(statusLabel({ status: 'draft', isPaid: false, quoteAmount: null })).toBe(
      'Draft - Complete Flight Plan',
    )
    expect(canPay({ status: 'pending', isPaid: false, quoteAmount: 100 })).toBe(true)
    expect(canPay({ status: 'pending', isPaid: true, quoteAmount: 100 })).toBe(false)
    expect(canPay({ status: 'pending', isPaid: false, quoteAmount: null })).toBe(false)
    expect(canPay({ status: 'draft', isPaid: false, quoteAmount: 100 })).toBe(false)
    expect(canPlan({ status: 'pending', isPaid: false })).toBe(true)
    expect(canPlan({ status: 'pending', isPaid: true })).toBe(false)
    expect(canPlan({ status: 'assigned', isPaid: false })).toBe(false)
  })

  test('Fly this again: completed, or paid and not cancelled', () => {
    expect(canRepeat({ status: 'completed', isPaid: true })).toBe(true)
    expect(canRepeat({ status: 'assigned', isPaid: true })).toBe(true)
    expect(canRepeat({ status: 'pending', isPaid: false })).toBe(false)
    expect(canRepeat({ status: 'draft', isPaid: false })).toBe(false)
    expect(canRepeat({ status: 'cancelled', isPaid: true })).toBe(false)
  })
})

const drawnArea = {
  areaNumber: 1,
  coordinates: [
    { pointNumber: 1, latitude: -34.01, longitude: 18.43 },
    { pointNumber: 2, latitude: -34.01, longitude: 18.44 },
    { pointNumber: 3, latitude: -34.02, longitude: 18.44 },
  ],
}

describe('flightPlanAreas', () => {
  test('reads the areas of a stored flight plan (the stored shape), also when stored as a JSON string twice', () => {
    const plan = { address: 'x', areas: [drawnArea] }
    const expected = [
      { coordinates: drawnArea.coordinates.map(({ latitude, longitude }) => ({ latitude, longitude })) },
    ]
    expect(flightPlanAreas(JSON.stringify(plan))).toEqual(expected)
    expect(flightPlanAreas(JSON.stringify(JSON.stringify(plan)))).toEqual(expected)
  })

  test('returns null for anything that is not a usable plan', () => {
    for (const bad of [
      null,
      '',
      'not json',
      '{}',
      JSON.stringify({ areas: [] }),
      JSON.stringify({ areas: [{ coordinates: drawnArea.coordinates.slice(0, 2) }] }),
      JSON.stringify({ areas: [{ coordinates: [{ latitude: 'x', longitude: 1 }, {}, {}] }] }),
    ]) {
      expect(flightPlanAreas(bad)).toBeNull()
    }
  })
})

describe('readFlightPlan: the one reader', () => {
  test('every view of a plan stored as a JSON string twice reads it as the plan', () => {
    const twice = JSON.stringify(JSON.stringify(plan))
    expect(readFlightPlan(twice)?.areas).toHaveLength(plan.areas.length)
    expect(flightPlanView(twice)?.areas).toEqual(flightPlanView(JSON.stringify(plan))?.areas)
    expect(summariseFlightPlan(twice)).toEqual(summariseFlightPlan(JSON.stringify(plan)))
    expect(quotedFlightPlan(twice)?.pricing.totalInCents).toBe(plan.pricing.totalInCents)
  })

  test('keeps the fields it does not check, so the quote dialog gets the whole plan', () => {
    expect(quotedFlightPlan(JSON.stringify(plan))).toEqual(plan)
  })

  test('the admin summary of an unreadable plan says so; no plan is none', () => {
    expect(summariseFlightPlan(null)).toEqual({ status: 'none' })
    expect(summariseFlightPlan('{not json')).toEqual({ status: 'unparseable' })
    expect(summariseFlightPlan(JSON.stringify({ areas: [] }))).toEqual({ status: 'unparseable' })
  })
})

describe('the edits of a stored plan', () => {
  test('the pattern text of every area is replaced, the rest kept; unreadable text is kept as it is', () => {
    const edited = JSON.parse(withFlightPattern(JSON.stringify(plan), 'Crosshatch')!) as FlightPlan
    expect(edited.areas.map((a) => a.pilotInstructions.flightPattern)).toEqual(
      plan.areas.map(() => 'Crosshatch'),
    )
    expect({ ...edited, areas: plan.areas }).toEqual(plan)
    expect(withFlightPattern('{not json', 'Crosshatch')).toBe('{not json')
    expect(withFlightPattern(null, 'Crosshatch')).toBeNull()
  })

  test('the screenshot is taken out and nothing else', () => {
    const stored = JSON.stringify({ ...plan, screenshot: PNG })
    expect(JSON.parse(withoutScreenshot(stored)!)).toEqual(
      Object.fromEntries(Object.entries(plan).filter(([key]) => key !== 'screenshot')),
    )
    expect(withoutScreenshot('{not json "screenshot"')).toBe('{not json "screenshot"')
  })
})
