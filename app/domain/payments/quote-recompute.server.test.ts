import { describe, expect, test } from 'vitest'

import { flightPlanAreas } from './quote-recompute.server.ts'

const area = {
  areaNumber: 1,
  coordinates: [
    { pointNumber: 1, latitude: -34.01, longitude: 18.43 },
    { pointNumber: 2, latitude: -34.01, longitude: 18.44 },
    { pointNumber: 3, latitude: -34.02, longitude: 18.44 },
  ],
}

describe('flightPlanAreas', () => {
  test('reads the areas of a stored flight plan (the stored shape), also when stored as a JSON string twice', () => {
    const plan = { address: 'x', areas: [area] }
    const expected = [
      { coordinates: area.coordinates.map(({ latitude, longitude }) => ({ latitude, longitude })) },
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
      JSON.stringify({ areas: [{ coordinates: area.coordinates.slice(0, 2) }] }),
      JSON.stringify({ areas: [{ coordinates: [{ latitude: 'x', longitude: 1 }, {}, {}] }] }),
    ]) {
      expect(flightPlanAreas(bad)).toBeNull()
    }
  })
})
