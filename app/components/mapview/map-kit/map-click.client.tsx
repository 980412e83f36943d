/** A click hook on the map: `onClick` gets each [lng, lat] clicked while it is given (a crosshair says so). */
import type L from 'leaflet'
import { useEffect } from 'react'
import { useMap } from 'react-leaflet'

export function MapClick({ onClick }: { onClick: ((lngLat: [number, number]) => void) | null }) {
  const map = useMap()
  useEffect(() => {
    if (!onClick) return
    const container = map.getContainer()
    const handler = (event: L.LeafletMouseEvent) => onClick([event.latlng.lng, event.latlng.lat])
    map.on('click', handler)
    container.style.cursor = 'crosshair'
    return () => {
      map.off('click', handler)
      container.style.cursor = ''
    }
  }, [map, onClick])
  return null
}
