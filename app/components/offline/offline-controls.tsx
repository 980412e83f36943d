/**
 * The pilot's offline controls (ADR 140): the service worker registration (pilot dashboard
 * only), the banner shown while the device has no network, and the job's "Save for
 * offline" control. All of it needs JavaScript; without it the pages work as before.
 */
import { uploadQueue } from '#app/components/files/upload-queue-runner.ts'
import { Alert } from '#app/components/ui/alert.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import type { LatLng } from '#app/domain/geometry/areas.ts'
import type { SavedJob } from '#app/domain/offline/cache-rules.ts'
import { savedJobLines } from '#app/domain/offline/save-outcome.ts'
import { OFFLINE_TILE_LIMITS } from '#app/domain/offline/tiles.ts'
import { useEffect, useState, useSyncExternalStore } from 'react'

import {
  claimOfflinePack,
  offlineSupported,
  readOfflineMeta,
  registerOfflineWorker,
  saveJobForOffline,
} from './offline-pack.ts'

function subscribeOnline(callback: () => void) {
  window.addEventListener('online', callback)
  window.addEventListener('offline', callback)
  return () => {
    window.removeEventListener('online', callback)
    window.removeEventListener('offline', callback)
  }
}

/** False while the browser says it has no network (true on the server). */
function useOnline() {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  )
}

/**
 * The signed-in pilot's dashboard registers the worker, drops another user's pack and
 * continues this pilot's kept uploads.
 */
export function useOfflineWorker(userId: number, tileTemplate: string) {
  useEffect(() => {
    if (!offlineSupported()) return
    void claimOfflinePack(userId)
    void uploadQueue.restore(userId)
    registerOfflineWorker(tileTemplate).catch((error: unknown) => {
      console.warn('[offline] service worker not registered', error)
    })
  }, [userId, tileTemplate])
}

export function OfflineBanner() {
  const online = useOnline()
  if (online) return null
  return (
    <Alert tone="warning" title="You are offline" className="sticky top-2 z-30 shadow-sm">
      Showing the jobs saved on this device. Uploads wait and continue when the signal returns.
    </Alert>
  )
}

type SaveState =
  | { status: 'idle' }
  | { status: 'saving'; done: number; total: number }
  | { status: 'error'; message: string }

/** "Save for offline" on a job, then "Available offline — saved <date>" (and Update). */
export function SaveForOffline({
  jobId,
  userId,
  areas,
  tileTemplate,
  missionFile,
}: {
  jobId: number
  userId: number
  areas: LatLng[][]
  tileTemplate: string
  /** The mission file of the job's drone (kept in the pack too). */
  missionFile: string | null
}) {
  const hydrated = useHydrated()
  const online = useOnline()
  const [saved, setSaved] = useState<SavedJob | null>(null)
  const [state, setState] = useState<SaveState>({ status: 'idle' })

  useEffect(() => {
    let live = true
    void readOfflineMeta().then((meta) => {
      if (live) setSaved(meta?.userId === userId ? (meta.jobs[String(jobId)] ?? null) : null)
    })
    return () => {
      live = false
    }
  }, [jobId, userId])

  if (!hydrated || !offlineSupported()) return null

  async function save() {
    setState({ status: 'saving', done: 0, total: 0 })
    try {
      await registerOfflineWorker(tileTemplate)
      await navigator.serviceWorker.ready
      // The map's code is part of what the job needs offline.
      await import('#app/components/maps/areas-map.client.tsx')
      const result = await saveJobForOffline({
        userId,
        jobId,
        areas,
        tileTemplate,
        missionFile,
        onProgress: (done, total) => setState({ status: 'saving', done, total }),
      })
      setSaved(result)
      setState({ status: 'idle' })
    } catch (error) {
      console.warn('[offline] saving the job failed', error)
      setState({
        status: 'error',
        message: 'Could not save this job for offline use. Try again with signal.',
      })
    }
  }

  const saving = state.status === 'saving'
  const lines = saved ? savedJobLines(saved) : null
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-ink-100 bg-ink-50 px-3 py-2 text-sm"
      data-testid="offline-control"
    >
      <div className="min-w-0" role="status">
        {lines ? (
          <p className="font-medium text-emerald-800">{lines.title}</p>
        ) : (
          <p className="font-medium text-ink-800">Not saved on this device</p>
        )}
        <p className="text-xs text-ink-600">
          {lines
            ? lines.detail
            : `Keeps the job card, areas, flight plan, the drone's mission file and up to ${OFFLINE_TILE_LIMITS.maxTiles} map tiles readable without signal.`}
        </p>
        {state.status === 'error' ? (
          <p className="text-xs text-red-700" role="alert">
            {state.message}
          </p>
        ) : null}
      </div>
      {online ? (
        <button type="button" className="btn-secondary btn-sm" disabled={saving} onClick={() => void save()}>
          {saving
            ? `Saving… ${state.total ? Math.floor((state.done / state.total) * 100) : 0}%`
            : saved
              ? 'Update offline copy'
              : 'Save for offline'}
        </button>
      ) : null}
    </div>
  )
}
