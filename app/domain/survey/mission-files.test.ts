import { describe, expect, test } from 'vitest'

import { djiWpmlDrone } from './dji-wpml-drones.ts'
import {
  MISSION_FILE_FORMATS,
  missionFileUrl,
  missionFormatForDrone,
  missionFormatsFor,
} from './mission-files.ts'
import { REFERENCE_DRONES } from './reference-drones.ts'

describe('missionFormatForDrone', () => {
  test.each([
    ['DJI Matrice 350 RTK + Zenmuse P1 (35 mm)', 'kmz'],
    ['DJI Mavic 3 Enterprise (M3E)', 'kmz'],
    ['DJI M30T', 'kml'],
    ['DJI Phantom 4 RTK', 'kml'],
    ['DJI Phantom 4 Pro V2.0', 'litchi.csv'],
    ['DJI Mini 4 Pro', 'litchi.csv'],
    ['DJI Air 3', 'litchi.csv'],
    ['Holybro X500 (PX4)', 'plan'],
    ['Drone', 'plan'],
  ])('%s flies from %s', (name, format) => {
    expect(missionFormatForDrone(name)).toBe(format)
  })

  test('every reference drone has a file it loads', () => {
    for (const drone of REFERENCE_DRONES)
      expect(MISSION_FILE_FORMATS).toContain(missionFormatForDrone(drone.name))
  })
})

test('the job card offers a DJI KMZ only for a drone the KMZ is written for', () => {
  for (const drone of REFERENCE_DRONES) {
    const formats = missionFormatsFor(drone.name)
    expect(formats).toContain(missionFormatForDrone(drone.name))
    expect(formats.includes('kmz')).toBe(djiWpmlDrone(drone.name) !== null)
  }
  expect(missionFormatsFor('DJI M30T')).not.toContain('kmz')
  expect(missionFormatsFor(null)).toEqual(MISSION_FILE_FORMATS)
})

test('mission files come from the export route', () => {
  expect(missionFileUrl(12, 'litchi.csv')).toBe('/api/projects/12/export/litchi.csv')
})
