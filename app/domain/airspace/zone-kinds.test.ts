import { describe, expect, test } from 'vitest'

import {
  classifyKmlPlacemark,
  classifyNationalZone,
  colourFamily,
  type NationalZoneProperties,
} from './zone-kinds.ts'

const national = (overrides: Partial<NationalZoneProperties>): NationalZoneProperties => ({
  id: 'x',
  name: 'X',
  type: 'CTR',
  designator: 'FAXX',
  lowerFt: 0,
  upperFt: 2500,
  lowerRef: 'GND',
  lowerIsSurface: true,
  ...overrides,
})

describe('national dataset types', () => {
  test.each([
    ['CTR', 'CTR', '#f97316', 85000, false],
    ['ATZ', 'ATZ', '#ef4444', 85000, false],
    ['TMA', 'TMA', '#eab308', 85000, false],
    ['CTA', 'CTA', '#3b82f6', 85000, false],
    ['R', 'Restricted', '#a855f7', 85000, true],
    ['P', 'Prohibited', '#991b1b', 85000, true],
    ['D', 'Danger', '#dc2626', 0, false],
    ['AWY', 'Airway', '#64748b', 0, false],
    ['GSEC', 'Gliding', '#14b8a6', 0, false],
    ['PJE', 'Parachute', '#0ea5e9', 0, false],
  ])('%s from the ground → %s', (type, zoneType, color, fee, approval) => {
    expect(classifyNationalZone(national({ type }))).toMatchObject({
      zoneType,
      color,
      aviationFee: fee,
      requiresApproval: approval,
    })
  })

  test('zones starting above 400 ft AGL carry no fee and no approval flag', () => {
    expect(
      classifyNationalZone(national({ type: 'TMA', lowerIsSurface: false, lowerFt: 7600, lowerRef: 'MSL' })),
    ).toMatchObject({ aviationFee: 0, lowerIsSurface: false })
    expect(
      classifyNationalZone(national({ type: 'R', lowerIsSurface: false, lowerFt: 1500, lowerRef: 'AGL' })),
    ).toMatchObject({ aviationFee: 0, requiresApproval: false })
    // A floor at 300 ft AGL still matters to a drone flying at 120 m (394 ft).
    expect(
      classifyNationalZone(national({ type: 'R', lowerIsSurface: false, lowerFt: 300, lowerRef: 'AGL' })),
    ).toMatchObject({ aviationFee: 85000, requiresApproval: true })
  })
})

describe('KML placemarks', () => {
  test.each([
    [{ fill: '#0000ff' }, 'Controlled', 85000],
    [{ fill: '#1e90ff' }, 'Controlled', 85000],
    [{ fill: '#00ff00' }, 'Controlled', 85000],
    [{ fill: '#ffff00' }, 'OR Tambo Buffer', 15000],
    [{ fill: '#ffd700' }, 'OR Tambo Buffer', 15000],
    [{ fill: '#ff0000' }, 'Danger', 0],
    [{ stroke: '#ff0000' }, 'Danger', 0],
    [{ styleUrl: '#yellowPoly' }, 'OR Tambo Buffer', 15000],
    [{ name: 'OR Tambo buffer north' }, 'OR Tambo Buffer', 15000],
    [{ name: 'Danger area 12' }, 'Danger', 0],
    [{ fill: '#808080', name: 'Some zone' }, 'Controlled', 85000],
    [{}, 'Controlled', 85000],
  ])('%j → %s', (style, zoneType, fee) => {
    expect(classifyKmlPlacemark(style)).toMatchObject({ zoneType, aviationFee: fee })
  })

  test('colour families', () => {
    expect(colourFamily('#FF0000')).toBe('red')
    expect(colourFamily('ffa500')).toBe('yellow')
    expect(colourFamily('#ffffff')).toBeNull()
    expect(colourFamily('not a colour')).toBeNull()
  })
})
