import { expect, test } from 'vitest'

import { engineLabel, engineText } from './engine.ts'

test('the engine is named once: "ODM 3.5.6-simulated", never "ODM odm …"', () => {
  expect(engineLabel('odm', '3.5.6-simulated')).toBe('ODM 3.5.6-simulated')
  expect(engineLabel('odm', '?')).toBe('ODM')
  expect(engineLabel(undefined, undefined)).toBeNull()
  expect(engineLabel('microsoft', '1.0')).toBe('microsoft 1.0')
  // Rows stored before read the same.
  expect(engineText('odm 3.5.6-simulated')).toBe('ODM 3.5.6-simulated')
  expect(engineText('ODM 3.5.6')).toBe('ODM 3.5.6')
})
