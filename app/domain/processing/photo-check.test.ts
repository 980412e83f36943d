/** The photo check on photo facts: GPS, distance from the survey areas, node limits, the refusal. */
import { describe, expect, test } from 'vitest'

import { isOdmStage, odmStageOf } from './odm-stages.ts'
import { checkPhotos, MAX_LISTED_PROBLEMS, type CheckedPhoto } from './photo-check.ts'

const LAT = -33.9249
const LNG = 18.4241
const M_PER_DEG_LAT = 111_320

/** A 200 m square around (LAT, LNG). */
const AREA = {
  coordinates: [
    { latitude: LAT + 100 / M_PER_DEG_LAT, longitude: LNG - 0.0011 },
    { latitude: LAT + 100 / M_PER_DEG_LAT, longitude: LNG + 0.0011 },
    { latitude: LAT - 100 / M_PER_DEG_LAT, longitude: LNG + 0.0011 },
    { latitude: LAT - 100 / M_PER_DEG_LAT, longitude: LNG - 0.0011 },
  ],
}

/** `count` photos inside the area, north to south. */
function inside(count: number, from = 0): CheckedPhoto[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `DJI_${String(from + i).padStart(4, '0')}.JPG`,
    latitude: LAT + 80 / M_PER_DEG_LAT - (i * 10) / M_PER_DEG_LAT,
    longitude: LNG,
  }))
}

/** A photo `metres` north of the area's northern edge. */
function northOfArea(name: string, metres: number): CheckedPhoto {
  return { name, latitude: LAT + (100 + metres) / M_PER_DEG_LAT, longitude: LNG }
}

const base = { areas: [AREA], hasGcp: false, mostPhotosANodeTakes: null }

describe('the photo check', () => {
  test('placed photos inside the areas: no problems', () => {
    expect(checkPhotos({ ...base, photos: inside(6) })).toEqual({
      photoCount: 6,
      withGps: 6,
      hasGcp: false,
      problems: [],
      problemCount: 0,
      refusal: null,
    })
  })

  test('a photo without a position is named; with a gcp_list.txt it is not a problem', () => {
    const photos = [...inside(5), { name: 'DJI_0007.JPG', latitude: null, longitude: null }]
    expect(checkPhotos({ ...base, photos }).problems).toEqual([
      { photo: 'DJI_0007.JPG', problem: 'no GPS position' },
    ])
    expect(checkPhotos({ ...base, photos, hasGcp: true }).problems).toEqual([])
  })

  test('beyond 250 m of every area is a problem with its distance; within the margin is not', () => {
    const photos = [...inside(5), northOfArea('NEAR.JPG', 240), northOfArea('FAR.JPG', 400)]
    const check = checkPhotos({ ...base, photos })
    expect(check.problems).toHaveLength(1)
    expect(check.problems[0]!.photo).toBe('FAR.JPG')
    // Geodesic distance to the edge, to the metre (turf's own rounding of a sphere).
    expect(check.problems[0]!.problem).toMatch(/^taken (39[89]|40[012])\u00a0m outside the survey areas$/)
    const far = checkPhotos({ ...base, photos: [...inside(5), northOfArea('KM.JPG', 2500)] })
    expect(far.problems[0]!.problem).toMatch(/^taken 2,[45]\u00a0km outside the survey areas$/)
  })

  test('no survey areas: the distance is not checked', () => {
    const photos = [...inside(5), northOfArea('FAR.JPG', 5000)]
    expect(checkPhotos({ ...base, areas: [], photos }).problems).toEqual([])
  })

  test('more photos than any node takes: one problem about the whole set, first', () => {
    const photos = [...inside(6), { name: 'NOGPS.JPG', latitude: null, longitude: null }]
    const check = checkPhotos({ ...base, photos, mostPhotosANodeTakes: 5 })
    expect(check.problems[0]).toEqual({
      photo: null,
      problem: '7 photos: no processing node takes more than 5',
    })
    expect(check.problems[1]).toEqual({ photo: 'NOGPS.JPG', problem: 'no GPS position' })
    expect(checkPhotos({ ...base, photos, mostPhotosANodeTakes: 7 }).problems).toHaveLength(1)
  })

  test('fewer than five placed photos is a refusal; with GCPs five photos of any kind', () => {
    const noGps = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `X${i}.JPG`, latitude: null, longitude: null }))
    expect(checkPhotos({ ...base, photos: [...inside(4), ...noGps(10)] }).refusal).toBe(
      'At least 5 photos with a GPS position are needed to make a map; this project has 4',
    )
    expect(checkPhotos({ ...base, photos: inside(5) }).refusal).toBeNull()
    expect(checkPhotos({ ...base, hasGcp: true, photos: noGps(5) }).refusal).toBeNull()
    expect(checkPhotos({ ...base, hasGcp: true, photos: noGps(4) }).refusal).toBe(
      'At least 5 photos are needed to make a map; this project has 4',
    )
  })

  test('a long list is cut with a count of the rest', () => {
    const photos = [
      ...inside(5),
      ...Array.from({ length: 450 }, (_, i) => ({ name: `N${i}.JPG`, latitude: null, longitude: null })),
    ]
    const check = checkPhotos({ ...base, photos })
    expect(check.problemCount).toBe(450)
    expect(check.problems).toHaveLength(MAX_LISTED_PROBLEMS)
    expect(check.problems.at(-1)).toEqual({ photo: null, problem: 'and 251 more problems like these' })
  })
})

describe('ODM stages from the console', () => {
  test('the newest "Running … stage" line, in plain words', () => {
    const lines = [
      '[INFO]    Initializing ODM 3.5.6 - Mon Jan 05 2026',
      '[INFO]    Running dataset stage',
      '[INFO]    Loading dataset from: /var/www/data/abc/images',
      '[INFO]    Running opensfm stage',
      '[INFO]    Matching 42 images',
    ]
    expect(odmStageOf(lines)).toBe('Matching the photos (OpenSfM)')
    expect(odmStageOf([...lines, '[INFO]    Running odm_orthophoto stage'])).toBe(
      'Making the orthomosaic (orthophoto)',
    )
    expect(odmStageOf(['[INFO]    Running dem stage'])).toBeNull()
    expect(odmStageOf([])).toBeNull()
    expect(isOdmStage('Making the elevation models (DEM)')).toBe(true)
    expect(isOdmStage('Processing: http://user:pw@node:3000 unreachable')).toBe(false)
  })
})
