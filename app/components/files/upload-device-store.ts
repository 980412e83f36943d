/**
 * The upload queue's IndexedDB store (via idb-keyval, loaded on first use): each
 * file kept on the device (its Blob, its target and its tus upload URL) until the server
 * has all of it. A finished upload's record is never brought back by a late write.
 */
import type { UseStore } from 'idb-keyval'

import type { TusTarget } from './tus-transport.ts'

/** What IndexedDB keeps per file until it is uploaded: what tus needs, and whose it is. */
export interface KeptUpload extends TusTarget {
  key: string
  userId: number
  createdAt: number
}

export class UploadDeviceStore {
  private store: UseStore | null = null
  /** Uploads that are done (completed or refused): their kept record must stay deleted. */
  private finished = new Set<string>()

  private async idb() {
    if (typeof indexedDB === 'undefined') return null
    if (!this.store) {
      const { createStore } = await import('idb-keyval')
      this.store = createStore('kestrel-uploads', 'queue')
    }
    return this.store
  }

  /** Stores the record; false when there is no IndexedDB or it refused. */
  async keep(record: KeptUpload) {
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

  async forget(key: string) {
    const store = await this.idb()
    if (!store) return
    const { del } = await import('idb-keyval')
    await del(key, store).catch(() => undefined)
  }

  /** The upload is done: its record is deleted and stays deleted. */
  finish(key: string) {
    this.finished.add(key)
    void this.forget(key)
  }

  async rememberUrl(key: string, uploadUrl: string) {
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

  /**
   * The kept records of this user (null when IndexedDB cannot be read); every other
   * user's records are deleted unsent.
   */
  async keptFor(userId: number): Promise<KeptUpload[] | null> {
    const store = await this.idb()
    if (!store) return null
    const { entries, del } = await import('idb-keyval')
    let kept: Array<[IDBValidKey, KeptUpload]>
    try {
      kept = await entries<IDBValidKey, KeptUpload>(store)
    } catch {
      return null
    }
    const mine: KeptUpload[] = []
    for (const [id, record] of kept) {
      if (record.userId !== userId) {
        await del(id, store).catch(() => undefined)
        continue
      }
      mine.push(record)
    }
    return mine
  }

  /** Removes every kept file. */
  async clear() {
    const store = await this.idb()
    if (!store) return
    const { clear } = await import('idb-keyval')
    await clear(store).catch(() => undefined)
  }
}
