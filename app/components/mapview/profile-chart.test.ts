import { describe, expect, test } from 'vitest'

import { chartShapes, profileCsv } from './profile-chart.ts'

const figures = (points: Array<[number, number | null]>) => {
  const heights = points.map(([, z]) => z).filter((z): z is number => z !== null)
  return {
    lengthM: points.at(-1)![0],
    points: points.map(([distanceM, elevationM]) => ({ distanceM, elevationM })),
    maxGradePercent: null,
    minElevationM: Math.min(...heights),
    maxElevationM: Math.max(...heights),
  }
}

describe('profile chart', () => {
  test('only the legs steeper than 10 % are shaded, rising or falling', () => {
    // 0→10 m: +5 % ; 10→20 m: +20 % ; 20→30 m: −15 % ; 30→40 m: −10 % (not over)
    const { runs, steep } = chartShapes(
      figures([
        [0, 100],
        [10, 100.5],
        [20, 102.5],
        [30, 101],
        [40, 100],
      ]),
    )
    expect(runs).toHaveLength(1)
    expect(steep).toHaveLength(2)
    // The shaded legs start at 10 m and 20 m along: x = 4 + d / 40 × 632, down to the base at y = 190.
    expect(steep.map((p) => p.split(' ')[0])).toEqual(['162.0,190', '320.0,190'])
  })

  test('a gap breaks the line and is never shaded', () => {
    const { runs, steep } = chartShapes(
      figures([
        [0, 100],
        [10, 101],
        [20, null],
        [30, 110],
        [40, 111],
      ]),
    )
    expect(runs).toHaveLength(2)
    expect(steep).toHaveLength(0)
  })

  test('the CSV has a line per point, a gap left empty', () => {
    expect(
      profileCsv([
        { distanceM: 0, elevationM: 100.25 },
        { distanceM: 1.5, elevationM: null },
      ]),
    ).toBe('distance_m,elevation_m\n0,100.25\n1.5,\n')
  })
})
