import { expect, test } from 'vitest'

import { isIntentOf } from './intents.ts'

test('isIntentOf: only the listed intents, never another value', () => {
  const intents = ['create-project', 'delete-draft'] as const
  expect(isIntentOf(intents, 'delete-draft')).toBe(true)
  for (const other of ['delete', 'DELETE-DRAFT', null, undefined, 3, ['delete-draft']])
    expect(isIntentOf(intents, other)).toBe(false)
})
