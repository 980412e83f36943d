/**
 * The planner's airspace data: the zones for the map overlay (GET /api/airspace/zones,
 * large, cached by the browser) and the server's check of the drawn areas
 * (POST /api/airspace/check-flight-area), debounced while drawing.
 */
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import { useEffect, useState } from 'react'

import type { MapZone } from './map-layers.client.tsx'

interface AirspaceCheck {
  intersectsZone: boolean
  zoneName: string | null
  zoneType: string | null
  color: string | null
  aviationFee: number
  aviationFeeRands: number
  warnings: string[]
  zones?: Array<{ zoneName: string }>
}

export type AirspaceState =
  | { status: 'idle' }
  | { status: 'checking'; last: AirspaceCheck | null }
  | { status: 'done'; result: AirspaceCheck }
  | { status: 'error'; message: string }

export function useAirspaceZones() {
  const [zones, setZones] = useState<MapZone[]>([])
  useEffect(() => {
    let cancelled = false
    fetch('/api/airspace/zones')
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((data: MapZone[]) => !cancelled && setZones(data))
      .catch((error) => console.warn('[planner] airspace zones unavailable', error))
    return () => {
      cancelled = true
    }
  }, [])

  return zones
}

/** The check of `areas` (keyed by `areasKey`, their JSON), re-run 300 ms after each change. */
export function useAirspaceCheck(areas: SurveyArea[], areasKey: string) {
  const [airspace, setAirspace] = useState<AirspaceState>({ status: 'idle' })
  useEffect(() => {
    if (!areas.length) {
      setAirspace({ status: 'idle' })
      return
    }
    const controller = new AbortController()
    setAirspace((prev) => ({
      status: 'checking',
      last: prev.status === 'done' ? prev.result : prev.status === 'checking' ? prev.last : null,
    }))
    const timer = setTimeout(() => {
      fetch('/api/airspace/check-flight-area', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ flightPolygon: areas }),
        signal: controller.signal,
      })
        .then(async (r) => {
          const body = await r.json()
          if (!r.ok) throw new Error(body?.error ?? `Airspace check failed (${r.status})`)
          setAirspace({ status: 'done', result: body as AirspaceCheck })
        })
        .catch((error: Error) => {
          if (error.name === 'AbortError') return
          setAirspace({ status: 'error', message: error.message })
        })
    }, 300)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
    // areasKey stands for the areas' content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [areasKey])

  const check =
    airspace.status === 'done' ? airspace.result : airspace.status === 'checking' ? airspace.last : null
  return { airspace, check }
}
