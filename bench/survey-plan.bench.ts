/**
 * The survey engine on a 100 ha area (1 km × 1 km, with a notch so transects split) at
 * 2 cm/px with the Mavic 3 Enterprise camera. Goal: a plan in ≤ 20 ms (ADR 080).
 * Run: npm run bench -- bench/survey-plan.bench.ts
 */
import { localPlane } from '#app/domain/survey/local-plane.ts'
import { planSurvey, type SurveyDrone } from '#app/domain/survey/plan.ts'
import { bench, describe } from 'vitest'

const M3E: SurveyDrone = {
  sensorWidthMm: 17.3,
  sensorHeightMm: 13,
  focalLengthMm: 12.29,
  imageWidthPx: 5280,
  imageHeightPx: 3956,
  speedMs: 10,
  minTriggerIntervalS: 0.7,
}
const plane = localPlane({ latitude: -33.93, longitude: 18.86 })
// 1040 m × 1000 m less a 100 m × 400 m notch cut from the top edge: 100 ha.
const ring = [
  [0, 0],
  [1040, 0],
  [1040, 1000],
  [550, 1000],
  [550, 600],
  [450, 600],
  [450, 1000],
  [0, 1000],
].map(([x, y]) => plane.toLatLng([x!, y!]))

const input = { areas: [{ coordinates: ring }], drone: M3E, gsdCm: 2, frontOverlap: 75, sideOverlap: 70 }

const once = planSurvey(input)
for (let i = 0; i < 5; i++) planSurvey(input) // warm-up
const started = performance.now()
for (let i = 0; i < 20; i++) planSurvey(input)
const meanMs = (performance.now() - started) / 20
console.log(
  `100 ha at 2 cm/px: altitude ${once.altitudeM} m, ${once.lines.length} transects, ${once.photoCount} photos, ` +
    `${(once.pathLengthM / 1000).toFixed(1)} km, ${Math.round(once.flightTimeS / 60)} min, ${once.batteries} batteries — ${meanMs.toFixed(2)} ms a plan (goal ≤ 20 ms)`,
)

describe('survey plan', () => {
  bench('100 ha at 2 cm/px', () => {
    planSurvey(input)
  })
})
