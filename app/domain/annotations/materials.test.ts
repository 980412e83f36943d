import { expect, test } from 'vitest'

import {
  DEFAULT_MATERIALS,
  densityOf,
  MATERIAL_MESSAGES,
  materialsText,
  parseMaterials,
} from './materials.ts'

test('one material a line, "Name = density"; a decimal comma reads as a point; blank lines are skipped', () => {
  expect(parseMaterials('Sand = 1.6\n\n  Crushed stone 19 mm = 1,55 \r\nCoal=0.85')).toEqual({
    materials: [
      { name: 'Sand', densityTPerM3: 1.6 },
      { name: 'Crushed stone 19 mm', densityTPerM3: 1.55 },
      { name: 'Coal', densityTPerM3: 0.85 },
    ],
  })
  expect(parseMaterials('')).toEqual({ materials: [] })
})

test('each problem names its line; the same name twice (any case) and too many are refused', () => {
  expect(parseMaterials('Sand = 1.6\nGravel 1.7')).toEqual({ error: MATERIAL_MESSAGES.line(2) })
  expect(parseMaterials('= 1.6')).toEqual({ error: MATERIAL_MESSAGES.line(1) })
  expect(parseMaterials('Sand = heavy')).toEqual({ error: MATERIAL_MESSAGES.line(1) })
  expect(parseMaterials('Sand = 0')).toEqual({ error: MATERIAL_MESSAGES.density(1) })
  expect(parseMaterials('Sand = 30')).toEqual({ error: MATERIAL_MESSAGES.density(1) })
  expect(parseMaterials('Sand = 1.6\nsand = 1.7')).toEqual({ error: MATERIAL_MESSAGES.twice('sand') })
  const many = Array.from({ length: 51 }, (_, i) => `M${i} = 1`).join('\n')
  expect(parseMaterials(many)).toEqual({ error: MATERIAL_MESSAGES.tooMany })
})

test('the table reads back as its own text, and names a density in any case', () => {
  expect(parseMaterials(materialsText(DEFAULT_MATERIALS))).toEqual({ materials: DEFAULT_MATERIALS })
  expect(densityOf(DEFAULT_MATERIALS, ' crushed STONE ')).toBe(1.6)
  expect(densityOf(DEFAULT_MATERIALS, 'Unobtainium')).toBeNull()
  expect(densityOf(DEFAULT_MATERIALS, null)).toBeNull()
})
