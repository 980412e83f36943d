/**
 * Processing updated in place with JavaScript: a fetcher loads the page's data (or the jobs'
 * API) every few seconds while `isLive` says something may still change, and the clock behind
 * "elapsed" ticks. Without JavaScript the pages refresh themselves (a meta refresh inside
 * <noscript>) or offer a Refresh link instead.
 */
import { useFetcher, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'

const LIVE_POLL_MS = 3000

/**
 * The newest of the loader's data and the fetcher's answer from `url`, polled while
 * `isLive(data)`; when it stops being live the page's loaders run once more (files, status).
 */
export function useLiveData<D>(url: string, loaderData: D, isLive: (data: D) => boolean): D {
  const fetcher = useFetcher<D>()
  const revalidator = useRevalidator()
  const [polled, setPolled] = useState<D | null>(null)
  // New loader data (a form posted, a revalidation) replaces what was polled before it.
  useEffect(() => setPolled(null), [loaderData])
  useEffect(() => {
    if (fetcher.data !== undefined) setPolled(fetcher.data as D)
  }, [fetcher.data])
  const data = polled ?? loaderData
  const live = isLive(data)
  const load = useRef(fetcher.load)
  load.current = fetcher.load
  const idle = fetcher.state === 'idle'
  const idleRef = useRef(idle)
  idleRef.current = idle
  useEffect(() => {
    if (!live) return
    const timer = setInterval(() => {
      if (idleRef.current && document.visibilityState === 'visible') void load.current(url)
    }, LIVE_POLL_MS)
    return () => clearInterval(timer)
  }, [live, url])
  const wasLive = useRef(live)
  useEffect(() => {
    if (wasLive.current && !live && revalidator.state === 'idle') revalidator.revalidate()
    wasLive.current = live
  }, [live, revalidator])
  return data
}

/** Now, ticking each second while `running`; the server's `renderedAt` until the page is hydrated (no mismatch). */
export function useNow(running: boolean, renderedAt: number) {
  const [now, setNow] = useState(renderedAt)
  useEffect(() => {
    if (!running) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [running])
  return now
}
