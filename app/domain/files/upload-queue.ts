/**
 * The upload list's items and how they move, pure and browser-safe: the product's
 * item states uploading → completed / error, plus `queued` (waiting for signal: picked
 * offline, or cut by the network and retried when it returns) and `paused` (the pilot's
 * choice). The browser side (tus + IndexedDB) is `components/files/upload-queue.client.ts`.
 */
import type { FileCategory } from './rules.ts'

type UploadItemState = 'queued' | 'uploading' | 'paused' | 'completed' | 'error'

export interface UploadItem {
  key: string
  projectId: number
  category: FileCategory
  name: string
  size: number
  sent: number
  state: UploadItemState
  /** Why the server refused the file (state `error`). */
  error?: string
  fileId?: number
  /** The file is kept on this device (IndexedDB) until it is uploaded: it survives a reload. */
  kept: boolean
}

export type UploadEvent =
  | { type: 'start' }
  | { type: 'progress'; sent: number }
  | { type: 'network-lost' }
  | { type: 'pause' }
  | { type: 'success'; fileId?: number }
  | { type: 'refused'; error: string }

/** The next state of an item; a finished item (completed or refused) stays as it is. */
export function nextUploadItem(item: UploadItem, event: UploadEvent): UploadItem {
  if (item.state === 'completed' || (item.state === 'error' && event.type !== 'start')) return item
  switch (event.type) {
    case 'start':
      return { ...item, state: 'uploading', error: undefined }
    case 'progress':
      return item.state === 'uploading' ? { ...item, sent: Math.min(item.size, event.sent) } : item
    case 'network-lost':
      return item.state === 'paused' ? item : { ...item, state: 'queued' }
    case 'pause':
      return { ...item, state: 'paused' }
    case 'success':
      return { ...item, state: 'completed', sent: item.size, fileId: event.fileId, error: undefined }
    case 'refused':
      return { ...item, state: 'error', error: event.error }
  }
}

export function uploadPercent(item: Pick<UploadItem, 'sent' | 'size'>) {
  return item.size ? Math.floor((item.sent / item.size) * 100) : 100
}

const QUEUED_LABEL = 'Queued — waiting for signal'

/** The short status shown beside the file name. */
export function uploadStatusText(item: UploadItem) {
  const percent = uploadPercent(item)
  switch (item.state) {
    case 'completed':
      return 'Completed'
    case 'error':
      return 'Error'
    case 'paused':
      return `Paused · ${percent}%`
    case 'queued':
      return `${QUEUED_LABEL} · ${percent}%`
    case 'uploading':
      return `Uploading · ${percent}%`
  }
}

/** Waits between automatic attempts of a queued upload while the device says it is online (ms). */
export const QUEUE_RETRY_DELAYS = [5_000, 15_000, 30_000, 60_000, 120_000]

export function queueRetryDelay(attempt: number) {
  return QUEUE_RETRY_DELAYS[Math.min(attempt, QUEUE_RETRY_DELAYS.length - 1)]!
}

/** The share of the site's storage quota queued files may fill (the rest stays for the offline pack). */
const KEEP_QUOTA_SHARE = 0.8

/**
 * Whether a file may be kept on the device: it must fit in the quota's share with what is
 * stored already. Without an estimate (old browsers) nothing is kept.
 */
export function canKeepOnDevice(size: number, estimate: { usage?: number; quota?: number } | null) {
  if (!estimate?.quota) return false
  return (estimate.usage ?? 0) + size <= estimate.quota * KEEP_QUOTA_SHARE
}
