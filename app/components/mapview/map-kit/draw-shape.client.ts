/**
 * Drawing on a deliverables map, one way for every tool (a measure, a note's shape, a
 * change polygon): a line or polygon with leaflet-draw, or a point with a click.
 */
import {
  acceptEveryClick,
  followPointer,
  withoutMapFocus,
} from '#app/components/maps/leaflet-draw-fixes.client.ts'
import L from 'leaflet'

const vertexIcon = L.divIcon({
  className: '',
  html: '<span class="block h-3 w-3 rounded-full border-2 border-white bg-ink-800 shadow"></span>',
  iconSize: [12, 12],
  iconAnchor: [6, 6],
})

/**
 * Starts drawing a line or a polygon: `finishRef` then completes the shape, and the returned
 * function stops. The shape drawn arrives as leaflet-draw's CREATED event on the map.
 */
export function drawShape(
  map: L.Map,
  shape: 'line' | 'polygon',
  options: {
    colour: string
    fill: string
    /** The tool stays on after a shape (a measure), or stops (a note). */
    repeat: boolean
    finishRef: React.MutableRefObject<(() => void) | null>
  },
) {
  const { colour, fill, repeat, finishRef } = options
  const common = {
    icon: vertexIcon,
    touchIcon: vertexIcon,
    showLength: false,
    guidelineDistance: 12,
    shapeOptions: { color: colour, weight: 3, opacity: 1, fillColor: fill, fillOpacity: 0.2 },
    ...(repeat ? { repeatMode: true } : {}),
  }
  const handler =
    shape === 'line'
      ? new L.Draw.Polyline(map as L.DrawMap, common)
      : new L.Draw.Polygon(map as L.DrawMap, { ...common, showArea: false, allowIntersection: false })
  acceptEveryClick(handler)
  withoutMapFocus(map, () => handler.enable())
  const stopFollowing = followPointer(map, handler)
  finishRef.current = () => handler.completeShape()
  return () => {
    finishRef.current = null
    stopFollowing()
    handler.disable()
  }
}

/** Picks a point with a click (a crosshair over the map); the returned function stops. */
export function pickPoint(map: L.Map, onPick: (latlng: L.LatLng) => void) {
  map.getContainer().style.cursor = 'crosshair'
  const onClick = (event: L.LeafletMouseEvent) => onPick(event.latlng)
  map.on('click', onClick)
  return () => {
    map.off('click', onClick)
    map.getContainer().style.cursor = ''
  }
}

/** The points of a drawn line or polygon (leaflet-draw's CREATED event), and its layer. */
export function drawnShape(event: L.LeafletEvent) {
  const layer = (event as L.DrawEvents.Created).layer as L.Polyline
  return { layer, latlngs: layer.getLatLngs().flat(2) as L.LatLng[] }
}
