import fs from 'node:fs'
import path from 'node:path'
import { kml as kmlToGeoJson } from '@tmcw/togeojson'
import { DOMParser } from '@xmldom/xmldom'
import { expect, test } from 'vitest'

import { readRsaAirspaceZones } from './airspace.server.ts'

test('public/no-fly-zones.kml holds every low-level prohibited and restricted zone, with the attribution', () => {
  const text = fs.readFileSync(path.resolve('public/no-fly-zones.kml'), 'utf8')
  const doc = new DOMParser().parseFromString(text, 'text/xml')
  const collection = kmlToGeoJson(doc as unknown as Document)
  const expected = readRsaAirspaceZones()
    .filter((z) => z.requiresApproval)
    .map((z) => z.zoneName)
    .sort()
  expect(collection.features.map((f) => f.properties?.name).sort()).toEqual(expected)
  expect(collection.features.every((f) => f.geometry?.type === 'Polygon')).toBe(true)
  expect(text).toMatch(/<description>[^<]*NOT FOR NAVIGATION[^<]*XCSoar xcsoar-data-content/)
})
