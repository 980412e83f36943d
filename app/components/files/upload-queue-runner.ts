/**
 * The browser's upload queue (ADR 141): one per page, shared by every upload widget.
 * Each chosen file goes to /api/tus with tus-js-client and, when the device has room, is
 * kept in IndexedDB (the Blob, its target and its tus upload URL) until the server has all
 * of it. A file picked offline waits as `queued`; a cut upload is queued again and retried
 * with back-off while online and at once on the `online` event; after a reload the kept
 * files of the signed-in user continue from the server's offset without being picked
 * again. Kept files of another user are deleted, never sent.
 */
import { FILE_MESSAGES, type FileCategory } from '#app/domain/files/rules.ts'
import {
  canKeepOnDevice,
  nextUploadItem,
  queueRetryDelay,
  type UploadEvent,
  type UploadItem,
} from '#app/domain/files/upload-queue.ts'
import type { UseStore } from 'idb-keyval'
import type { Upload as TusUpload } from 'tus-js-client'

export const TUS_ENDPOINT = '/api/tus'
/** Back-off between tus's own retries of one request (ms); after the last the item is queued. */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000]
/** One PATCH per 5 MB: short requests survive flaky mobile links and proxies with timeouts. */
export const CHUNK_SIZE = 5 * 1024 * 1024

/** What IndexedDB keeps per file until it is uploaded. */
interface KeptUpload {
  key: string
  userId: number
  projectId: number
  category: FileCategory
  name: string
  type: string
  size: number
  lastModified: number
  blob: Blob
  uploadUrl: string | null
  createdAt: number
}

export type UploadNotice =
  | { type: 'success'; item: UploadItem; fileId?: number }
  | { type: 'refused'; item: UploadItem; error: string }

interface Source {
  blob: Blob
  userId: number | null
  type: string
  lastModified: number
  uploadUrl: string | null
}

function statusOf(error: unknown) {
  return (error as { originalResponse?: { getStatus(): number } | null }).originalResponse?.getStatus() ?? 0
}

function refusalText(error: unknown, name: string) {
  const body = (error as { originalResponse?: { getBody(): string } | null })?.originalResponse?.getBody?.()
  if (body) {
    try {
      const parsed = JSON.parse(body) as { error?: string }
      if (parsed.error) return parsed.error
    } catch {
      // not JSON
    }
  }
  return FILE_MESSAGES.uploadFailed(name)
}

/** 4xx other than conflict/locked/too many: the server will never take this upload. */
function isRefusal(status: number) {
  return status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429
}

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false

export class UploadQueue {
  private items: UploadItem[] = []
  private listeners = new Set<() => void>()
  private noticeListeners = new Set<(notice: UploadNotice) => void>()
  private sources = new Map<string, Source>()
  private uploads = new Map<string, TusUpload>()
  private timers = new Map<string, ReturnType<typeof setTimeout>>()
  /** Uploads that are done (completed or refused): their kept record must stay deleted. */
  private finished = new Set<string>()
  private attempts = new Map<string, number>()
  private restoredFor: number | null = null
  private store: UseStore | null = null
  private watching = false

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

  private async idb() {
    if (typeof indexedDB === 'undefined') return null
    if (!this.store) {
      const { createStore } = await import('idb-keyval')
      this.store = createStore('kestrel-uploads', 'queue')
    }
    return this.store
  }

  private async keep(record: KeptUpload) {
    this.finished.delete(record.key)
    const store = await this.idb()
    if (!store) return false
    const { set } = await import('idb-keyval')
    try {
      await set(record.key, record, store)
      return true
    } catch {
      return false
    }
  }

  private async forget(key: string) {
    const store = await this.idb()
    if (!store) return
    const { del } = await import('idb-keyval')
    await del(key, store).catch(() => undefined)
  }

  private async rememberUrl(key: string, uploadUrl: string) {
    const store = await this.idb()
    if (!store) return
    const { get, set } = await import('idb-keyval')
    try {
      const old = await get<KeptUpload>(key, store)
      // An upload can finish while this read is under way: never bring its record back.
      if (old && !this.finished.has(key)) await set(key, { ...old, uploadUrl }, store)
    } catch {
      // not kept: nothing to update
    }
  }

  /** The `online` event continues every queued upload at once. */
  private watchNetwork() {
    if (this.watching || typeof window === 'undefined') return
    this.watching = true
    window.addEventListener('online', () => {
      for (const item of this.items) if (item.state === 'queued') void this.start(item.key)
    })
  }

  /** A queued upload is tried again after a growing pause (while the device says online). */
  private scheduleRetry(key: string) {
    clearTimeout(this.timers.get(key))
    const attempt = this.attempts.get(key) ?? 0
    this.attempts.set(key, attempt + 1)
    this.timers.set(
      key,
      setTimeout(() => {
        if (this.item(key)?.state === 'queued' && !isOffline()) void this.start(key)
      }, queueRetryDelay(attempt)),
    )
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
    const kept = await this.keep({
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
      await this.forget(key)
      return
    }
    if (source.uploadUrl) await this.rememberUrl(key, source.uploadUrl)
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
    const store = await this.idb()
    if (!store) return
    const { entries, del } = await import('idb-keyval')
    let kept: Array<[IDBValidKey, KeptUpload]>
    try {
      kept = await entries<IDBValidKey, KeptUpload>(store)
    } catch {
      return
    }
    for (const [id, record] of kept) {
      if (record.userId !== userId) {
        await del(id, store).catch(() => undefined)
        continue
      }
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
    const store = await this.idb()
    if (!store) return
    const { clear } = await import('idb-keyval')
    await clear(store).catch(() => undefined)
  }

  pause(key: string) {
    clearTimeout(this.timers.get(key))
    void this.uploads.get(key)?.abort(false)
    this.apply(key, { type: 'pause' })
  }

  resume(key: string) {
    this.attempts.delete(key)
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
    clearTimeout(this.timers.get(key))
    this.apply(key, { type: 'start' })
    const existing = this.uploads.get(key)
    if (existing) {
      existing.start()
      return
    }
    const tus = await import('tus-js-client')
    const { projectId, category, name } = item
    const upload = new tus.Upload(source.blob, {
      endpoint: TUS_ENDPOINT,
      // A kept file continues at its own upload (HEAD asks the server for the offset).
      uploadUrl: source.uploadUrl ?? undefined,
      chunkSize: CHUNK_SIZE,
      retryDelays: RETRY_DELAYS,
      removeFingerprintOnSuccess: true,
      metadata: { filename: name, filetype: source.type, projectId: String(projectId), category },
      fingerprint: async () =>
        ['kestrel', projectId, category, name, source.type, item.size, source.lastModified].join('|'),
      onUploadUrlAvailable: () => {
        if (upload.url) {
          source.uploadUrl = upload.url
          void this.rememberUrl(key, upload.url)
        }
      },
      onProgress: (sent) => this.apply(key, { type: 'progress', sent }),
      onShouldRetry: (error, _attempt, opts) => {
        if (isRefusal(statusOf(error))) return false
        // Offline: stop retrying now; the 'online' event continues the upload.
        return !isOffline() && (opts.retryDelays?.length ?? 0) > 0
      },
      onError: (error) => {
        const status = statusOf(error)
        if (isRefusal(status)) {
          const message = refusalText(error, name)
          this.apply(key, { type: 'refused', error: message })
          this.finish(key)
          this.notice({ type: 'refused', item: this.item(key)!, error: message })
          return
        }
        // Cut by the network (or the server is away): wait for the signal and try again.
        if (this.item(key)?.state === 'paused') return
        this.apply(key, { type: 'network-lost' })
        if (!isOffline()) this.scheduleRetry(key)
      },
      onSuccess: ({ lastResponse }) => {
        const fileId = Number(lastResponse.getHeader('X-Project-File-Id')) || undefined
        this.apply(key, { type: 'success', fileId })
        this.finish(key)
        this.notice({ type: 'success', item: this.item(key)!, fileId })
      },
    })
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
    this.finished.add(key)
    clearTimeout(this.timers.get(key))
    this.uploads.delete(key)
    this.sources.delete(key)
    this.attempts.delete(key)
    void this.forget(key)
  }
}

/** The page's one queue. */
export const uploadQueue = new UploadQueue()
