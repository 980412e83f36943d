/**
 * The coverage check on a flown 100 ha survey: 1 km × 1 km, Mavic 3 Enterprise at 2 cm/px
 * (footprint 105,6 m × 79,1 m), 70 % side and 75 % front overlap — 33 lines of 51 photos
 * (1 683 photos) with ±3 m of GPS scatter, then the same flight twice over (3 366 photos)
 * and six times over, cut at 10 000 photos (re-flown lines: the densest case).
 * Goals: a project view computes it in well under a second; 10 000 photos within
 * 100 ms, and twice the photos costs about twice the time, not four times.
 * Run: npm run bench -- bench/coverage.bench.ts
 */
import { computeCoverage, type CoverageInput } from '#app/domain/coverage/coverage.ts'
import { localPlane } from '#app/domain/survey/local-plane.ts'
import { bench, describe } from 'vitest'

const plane = localPlane({ latitude: -33.93, longitude: 18.86 })
const area = {
  coordinates: [
    [0, 0],
    [1000, 0],
    [1000, 1000],
    [0, 1000],
  ].map(([x, y]) => plane.toLatLng([x!, y!])),
}
const footprint = { sideM: 105.6, frontM: 79.1 }
const spacing = footprint.sideM * 0.3
const trigger = footprint.frontM * 0.25

let seed = 42
const jitter = () => {
  seed = (seed * 16807) % 2147483647
  return ((seed / 2147483647) * 2 - 1) * 3
}
function flight() {
  const photos = []
  for (let x = 0; x <= 1000 + 1e-9; x += spacing) {
    for (let y = 0; y <= 1000 + 1e-9; y += trigger) photos.push(plane.toLatLng([x + jitter(), y + jitter()]))
  }
  return photos
}
const once = flight()
const inputs: Record<string, CoverageInput> = {
  [`${once.length} photos`]: { areas: [area], photos: once, photosWithoutGps: 0, footprint, angleDeg: 0 },
  [`${once.length * 2} photos`]: {
    areas: [area],
    photos: [...once, ...flight()],
    photosWithoutGps: 0,
    footprint,
    angleDeg: 0,
  },
  '10000 photos': {
    areas: [area],
    photos: Array.from({ length: 6 }, flight).flat().slice(0, 10_000),
    photosWithoutGps: 0,
    footprint,
    angleDeg: 0,
  },
}

for (const [name, input] of Object.entries(inputs)) {
  const started = performance.now()
  const result = computeCoverage(input)
  console.log(
    `${name}: covered ${(result.areas[0]!.coveredShare * 100).toFixed(2)} % in ${(performance.now() - started).toFixed(0)} ms (first run)`,
  )
}

describe('coverage of a flown 100 ha survey', () => {
  for (const [name, input] of Object.entries(inputs)) {
    bench(
      name,
      () => {
        computeCoverage(input)
      },
      { iterations: 3, warmupIterations: 1 },
    )
  }
})
