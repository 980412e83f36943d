/**
 * A read-only map's base layer: the satellite tiles, and when they do not load (no network to
 * the tile server) the offline map — grid, towns and provinces — with a note, as the
 * planner falls back to it. The map's element says which one shows in `data-base-layer`.
 */
import { useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { TileLayer, useMap } from 'react-leaflet'

import { OFFLINE_BASE_NOTICE, tilesFailed } from './base-layers.ts'
import { TILE_ATTRIBUTION } from './map-constants.ts'
import { OfflineBaseLayer } from './offline-base-layer.client.tsx'

export function SatelliteOrOffline({
  url,
  maxZoom,
  maxNativeZoom,
}: {
  url: string
  maxZoom: number
  maxNativeZoom?: number
}) {
  const map = useMap()
  const [offline, setOffline] = useState(false)
  const count = useRef({ loaded: 0, failed: 0 })

  useEffect(() => {
    const element = map.getContainer()
    element.dataset.baseLayer = offline ? 'outline' : 'satellite'
    element.classList.toggle('map-outline-base', offline)
  }, [map, offline])

  if (offline)
    return (
      <>
        <OfflineBaseLayer />
        {createPortal(
          <p
            role="status"
            data-testid="tile-notice"
            className="absolute inset-x-3 bottom-8 z-[500] mx-auto max-w-md rounded-lg bg-ink-950/85 px-3 py-2 text-center text-xs font-medium text-white shadow-lg"
          >
            {OFFLINE_BASE_NOTICE}
          </p>,
          map.getContainer(),
        )}
      </>
    )
  return (
    <TileLayer
      url={url}
      attribution={TILE_ATTRIBUTION}
      maxZoom={maxZoom}
      maxNativeZoom={maxNativeZoom}
      eventHandlers={{
        tileload: () => {
          count.current.loaded += 1
        },
        tileerror: () => {
          count.current.failed += 1
          if (tilesFailed(count.current)) setOffline(true)
        },
      }}
    />
  )
}
