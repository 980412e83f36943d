import { expect, test } from 'vitest'

import { plainStage } from './client-stage.ts'

test('a client reads the stage’s plain words, never a node URL, host, task id or message', () => {
  expect(plainStage('Uploading photo 3 of 20', 'uploading')).toBe('Uploading photo 3 of 20')
  expect(plainStage('Waiting for a processing node', 'queued')).toBe('Waiting for a processing node')
  expect(
    plainStage('Sending again: Could not reach http://user:pw@odm:3000/task/abc/info', 'uploading'),
  ).toBe('Sending again')
  expect(plainStage('Queued on the node (task 5a2b9c1e-77aa-4f10-9d1c-0c1d2e3f4a5b)', 'queued')).toBe(
    'Queued on the node',
  )
  expect(plainStage('http://odm.internal:3000/task/5a2b9c1e', 'processing')).toBe('Processing')
  expect(plainStage('odm.internal/task/5a2b9c1e-77aa', 'processing')).toBe('Processing')
  expect(plainStage('Task 5a2b9c1e77aa4f10 running', 'processing')).toBe('Processing')
  expect(plainStage(null, 'processing')).toBeNull()
})
