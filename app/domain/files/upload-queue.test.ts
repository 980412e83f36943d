import { describe, expect, it } from 'vitest'

import {
  canKeepOnDevice,
  nextUploadItem,
  QUEUE_RETRY_DELAYS,
  queueRetryDelay,
  uploadStatusText,
  type UploadItem,
} from './upload-queue.ts'

const item: UploadItem = {
  key: 'a',
  projectId: 1,
  category: 'raw_image',
  name: 'DJI_0001.JPG',
  size: 1000,
  sent: 0,
  state: 'queued',
  kept: true,
}

describe('upload item states', () => {
  it('goes queued → uploading → queued (signal lost) → uploading → completed', () => {
    let current = nextUploadItem(item, { type: 'start' })
    expect(current.state).toBe('uploading')
    current = nextUploadItem(current, { type: 'progress', sent: 400 })
    expect(uploadStatusText(current)).toBe('Uploading · 40%')
    current = nextUploadItem(current, { type: 'network-lost' })
    expect(uploadStatusText(current)).toBe('Queued — waiting for signal · 40%')
    current = nextUploadItem(current, { type: 'start' })
    current = nextUploadItem(current, { type: 'success', fileId: 9 })
    expect(current).toMatchObject({ state: 'completed', sent: 1000, fileId: 9 })
    expect(uploadStatusText(current)).toBe('Completed')
    // Late events do not undo completion.
    expect(nextUploadItem(current, { type: 'network-lost' }).state).toBe('completed')
    expect(nextUploadItem(current, { type: 'start' }).state).toBe('completed')
  })

  it('shows a refusal as an error with the reason, and keeps it', () => {
    const refused = nextUploadItem(
      { ...item, state: 'uploading' },
      { type: 'refused', error: 'File too large' },
    )
    expect(refused).toMatchObject({ state: 'error', error: 'File too large' })
    expect(uploadStatusText(refused)).toBe('Error')
    expect(nextUploadItem(refused, { type: 'network-lost' }).state).toBe('error')
  })

  it('keeps a paused upload paused when the network goes, and ignores progress while not uploading', () => {
    const paused = nextUploadItem({ ...item, state: 'uploading' }, { type: 'pause' })
    expect(nextUploadItem(paused, { type: 'network-lost' }).state).toBe('paused')
    expect(nextUploadItem(paused, { type: 'progress', sent: 500 }).sent).toBe(0)
    expect(uploadStatusText(paused)).toBe('Paused · 0%')
  })

  it('never counts more than the file size', () => {
    const up = nextUploadItem({ ...item, state: 'uploading' }, { type: 'progress', sent: 5000 })
    expect(up.sent).toBe(1000)
  })
})

describe('retries and storage', () => {
  it('backs off and stays at the longest wait', () => {
    expect(queueRetryDelay(0)).toBe(QUEUE_RETRY_DELAYS[0])
    expect(queueRetryDelay(1)).toBeGreaterThan(queueRetryDelay(0))
    expect(queueRetryDelay(99)).toBe(QUEUE_RETRY_DELAYS.at(-1))
  })

  it('keeps a file only when it fits in 80 % of the quota with what is stored', () => {
    expect(canKeepOnDevice(100, { usage: 0, quota: 1000 })).toBe(true)
    expect(canKeepOnDevice(300, { usage: 500, quota: 1000 })).toBe(true)
    expect(canKeepOnDevice(301, { usage: 500, quota: 1000 })).toBe(false)
    expect(canKeepOnDevice(1, null)).toBe(false)
    expect(canKeepOnDevice(1, { usage: 0 })).toBe(false)
  })
})
