/**
 * The profile chart's shapes (the ground line, broken at gaps; the legs steeper than the
 * haul-road rule of thumb, shaded) and its CSV: one chart and one CSV for the map's drawn
 * line and the typed-points form.
 */
import type { ProfileFigures } from '#app/domain/deliverables/profile.server.ts'

type ProfilePoint = ProfileFigures['points'][number]

/** A haul road steeper than this is shaded on the chart. */
export const STEEP_GRADE_PERCENT = 10
/** The chart's drawing box; its words are outside it (`ProfileResult`). */
export const CHART = { width: 640, height: 200, padX: 4, padY: 10 }

/** SVG point lists: `runs` of the ground line between gaps, `steep` polygons under legs over 10 %. */
export function chartShapes(figures: ProfileFigures) {
  const { points, lengthM } = figures
  const low = figures.minElevationM ?? 0
  const high = figures.maxElevationM ?? 1
  const span = high - low || 1
  const x = (d: number) => CHART.padX + (d / (lengthM || 1)) * (CHART.width - 2 * CHART.padX)
  const y = (z: number) => CHART.height - CHART.padY - ((z - low) / span) * (CHART.height - 2 * CHART.padY)
  const base = CHART.height - CHART.padY
  const runs: string[] = []
  const steep: string[] = []
  let run: string[] = []
  points.forEach((p, i) => {
    if (p.elevationM === null) {
      if (run.length > 1) runs.push(run.join(' '))
      run = []
      return
    }
    run.push(`${x(p.distanceM).toFixed(1)},${y(p.elevationM).toFixed(1)}`)
    const before = points[i - 1]
    if (before?.elevationM == null) return
    const grade = (Math.abs(p.elevationM - before.elevationM) / (p.distanceM - before.distanceM || 1)) * 100
    if (grade <= STEEP_GRADE_PERCENT) return
    const [x0, x1] = [x(before.distanceM).toFixed(1), x(p.distanceM).toFixed(1)]
    steep.push(
      `${x0},${base} ${x0},${y(before.elevationM).toFixed(1)} ${x1},${y(p.elevationM).toFixed(1)} ${x1},${base}`,
    )
  })
  if (run.length > 1) runs.push(run.join(' '))
  return { runs, steep }
}

/**
 * The points as CSV (distance, elevation; a gap left empty). Numbers only, so no field can
 * start a formula: written here, in the browser too, rather than by the server's CSV helper.
 */
export function profileCsv(points: ProfilePoint[]) {
  return (
    ['distance_m,elevation_m', ...points.map((p) => `${p.distanceM},${p.elevationM ?? ''}`)].join('\n') + '\n'
  )
}
