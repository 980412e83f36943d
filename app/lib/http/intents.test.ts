import { expect, test } from 'vitest'

import { intentSchema, readIntent } from './intents.ts'

const form = (intent: unknown) => {
  const data = new FormData()
  if (intent !== undefined) data.append('intent', String(intent))
  return data
}

test('readIntent: only the schema’s intents, never another value', () => {
  const Intents = intentSchema('create-project', 'delete-draft')
  expect(readIntent(form('delete-draft'), Intents)).toBe('delete-draft')
  for (const other of ['delete', 'DELETE-DRAFT', '', 3, undefined])
    expect(readIntent(form(other), Intents)).toBeNull()
})

test('a form with two intent fields is read by its first', () => {
  const data = form('create-project')
  data.append('intent', 'delete-draft')
  expect(readIntent(data, intentSchema('delete-draft', 'create-project'))).toBe('create-project')
})
