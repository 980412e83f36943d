/**
 * The browser's upload queue: one per page, shared by every upload widget.
 * Each chosen file goes to /api/tus with tus-js-client and, when the device has room, is
 * kept in IndexedDB (the Blob, its target and its tus upload URL) until the server has all
 * of it. A file picked offline waits as `queued`; a cut upload is queued again and retried
 * with back-off while online and at once on the `online` event; after a reload the kept
 * files of the signed-in user continue from the server's offset without being picked
 * again. Kept files of another user are deleted, never sent.
 * Parts: `tus-transport.ts` (the tus client), `upload-device-store.ts` (IndexedDB),
 * `upload-retry.ts` (when to try again); this module holds the queue's state.
 */
import type { FileCategory } from '#app/domain/files/rules.ts'
import {
  canKeepOnDevice,
  nextUploadItem,
  type UploadEvent,
  type UploadItem,
} from '#app/domain/files/upload-queue.ts'
import type { Upload as TusUpload } from 'tus-js-client'

import { createTusUpload, isOffline, preloadTusClient } from './tus-transport.ts'
import { UploadDeviceStore } from './upload-device-store.ts'
import { RetryScheduler } from './upload-retry.ts'

type UploadNotice =
  | { type: 'success'; item: UploadItem; fileId?: number }
  | { type: 'refused'; item: UploadItem; error: string }

interface Source {
  blob: Blob
  userId: number | null
  type: string
  lastModified: number
  uploadUrl: string | null
}

class UploadQueue {
  private items: UploadItem[] = []
  private listeners = new Set<() => void>()
  private noticeListeners = new Set<(notice: UploadNotice) => void>()
  private sources = new Map<string, Source>()
  private uploads = new Map<string, TusUpload>()
  private device = new UploadDeviceStore()
  private retries = new RetryScheduler()
  private restoredFor: number | null = null

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  getSnapshot = () => this.items

  onNotice(listener: (notice: UploadNotice) => void) {
    this.noticeListeners.add(listener)
    return () => {
      this.noticeListeners.delete(listener)
    }
  }

  private emit() {
    for (const listener of this.listeners) listener()
  }

  private notice(notice: UploadNotice) {
    for (const listener of this.noticeListeners) listener(notice)
  }

  private apply(key: string, event: UploadEvent) {
    this.items = this.items.map((item) => (item.key === key ? nextUploadItem(item, event) : item))
    this.emit()
  }

  private item(key: string) {
    return this.items.find((item) => item.key === key)
  }

  /** The `online` event continues every queued upload at once. */
  private watchNetwork() {
    this.retries.watchNetwork(() => {
      for (const item of this.items) if (item.state === 'queued') void this.start(item.key)
    })
  }

  /** A queued upload is tried again after a growing pause (while the device says online). */
  private scheduleRetry(key: string) {
    this.retries.schedule(key, () => {
      if (this.item(key)?.state === 'queued' && !isOffline()) void this.start(key)
    })
  }

  /**
   * Adds a chosen file: kept on the device when there is room (and persistent storage is
   * asked for), then sent at once, or queued while offline.
   */
  async add(file: File, target: { projectId: number; category: FileCategory; userId: number | null }) {
    this.watchNetwork()
    const key = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
    const item: UploadItem = {
      key,
      projectId: target.projectId,
      category: target.category,
      name: file.name,
      size: file.size,
      sent: 0,
      state: isOffline() ? 'queued' : 'uploading',
      kept: false,
    }
    this.items = [...this.items, item]
    this.emit()
    const source: Source = {
      blob: file,
      userId: target.userId,
      type: file.type,
      lastModified: file.lastModified,
      uploadUrl: null,
    }
    this.sources.set(key, source)
    const started = isOffline() ? Promise.resolve() : this.start(key, { lookForPrevious: true })
    if (target.userId !== null) await this.keepOnDevice(key, file, { ...target, userId: target.userId })
    await started
  }

  /** Keeps the file in IndexedDB when it fits the storage bound (and asks for persistence). */
  private async keepOnDevice(
    key: string,
    file: File,
    target: { projectId: number; category: FileCategory; userId: number },
  ) {
    const estimate = await navigator.storage?.estimate?.().catch(() => null)
    if (!canKeepOnDevice(file.size, estimate ?? null)) return
    void navigator.storage?.persist?.().catch(() => false)
    const kept = await this.device.keep({
      key,
      userId: target.userId,
      projectId: target.projectId,
      category: target.category,
      name: file.name,
      type: file.type,
      size: file.size,
      lastModified: file.lastModified,
      blob: file,
      uploadUrl: this.sources.get(key)?.uploadUrl ?? null,
      createdAt: Date.now(),
    })
    if (!kept) return
    const source = this.sources.get(key)
    if (!source) {
      // Finished (or refused) while it was being stored: nothing to keep.
      await this.device.forget(key)
      return
    }
    if (source.uploadUrl) await this.device.rememberUrl(key, source.uploadUrl)
    this.items = this.items.map((i) => (i.key === key ? { ...i, kept: true } : i))
    this.emit()
  }

  /**
   * Continues the kept files of this user after a reload (once per page and user); kept
   * files of anybody else are deleted unsent.
   */
  async restore(userId: number) {
    if (this.restoredFor === userId) return
    this.restoredFor = userId
    this.watchNetwork()
    preloadTusClient()
    const kept = await this.device.keptFor(userId)
    if (!kept) return
    for (const record of kept) {
      if (this.sources.has(record.key)) continue
      this.sources.set(record.key, {
        blob: record.blob,
        userId,
        type: record.type,
        lastModified: record.lastModified,
        uploadUrl: record.uploadUrl,
      })
      this.items = [
        ...this.items,
        {
          key: record.key,
          projectId: record.projectId,
          category: record.category,
          name: record.name,
          size: record.size,
          sent: 0,
          state: 'queued',
          kept: true,
        },
      ]
    }
    this.emit()
    if (!isOffline()) {
      for (const item of this.items) if (item.state === 'queued') void this.start(item.key)
    }
  }

  /** Removes every kept file (sign-out of this device's user, or another user signing in). */
  async clearKept() {
    await this.device.clear()
  }

  pause(key: string) {
    this.retries.cancel(key)
    void this.uploads.get(key)?.abort(false)
    this.apply(key, { type: 'pause' })
  }

  resume(key: string) {
    this.retries.reset(key)
    if (isOffline()) {
      this.apply(key, { type: 'network-lost' })
      return
    }
    void this.start(key)
  }

  private async start(key: string, options: { lookForPrevious?: boolean } = {}) {
    const item = this.item(key)
    const source = this.sources.get(key)
    if (!item || !source || item.state === 'completed' || item.state === 'error') return
    this.retries.cancel(key)
    this.apply(key, { type: 'start' })
    const existing = this.uploads.get(key)
    if (existing) {
      existing.start()
      return
    }
    const upload = await createTusUpload(
      { ...source, projectId: item.projectId, category: item.category, name: item.name, size: item.size },
      {
        onUploadUrl: (url) => {
          source.uploadUrl = url
          void this.device.rememberUrl(key, url)
        },
        onProgress: (sent) => this.apply(key, { type: 'progress', sent }),
        onRefused: (message) => {
          this.apply(key, { type: 'refused', error: message })
          this.finish(key)
          this.notice({ type: 'refused', item: this.item(key)!, error: message })
        },
        onCut: () => {
          // Cut by the network (or the server is away): wait for the signal and try again.
          if (this.item(key)?.state === 'paused') return
          this.apply(key, { type: 'network-lost' })
          if (!isOffline()) this.scheduleRetry(key)
        },
        onSuccess: (fileId) => {
          this.apply(key, { type: 'success', fileId })
          this.finish(key)
          this.notice({ type: 'success', item: this.item(key)!, fileId })
        },
      },
    )
    this.uploads.set(key, upload)
    if (options.lookForPrevious && !source.uploadUrl) {
      // The same file chosen again after a reload (not kept): continue its earlier upload.
      const previous = await upload.findPreviousUploads()
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0])
    }
    if (this.item(key)?.state !== 'uploading') return
    upload.start()
  }

  /** Done either way: the kept Blob goes, and so does the in-memory source. */
  private finish(key: string) {
    this.device.finish(key)
    this.retries.forget(key)
    this.uploads.delete(key)
    this.sources.delete(key)
  }
}

/** The page's one queue. */
export const uploadQueue = new UploadQueue()
