/**
 * Drawing survey areas with leaflet-draw's polygon handler (`L.Draw.Polygon`), driven by
 * the side panel's own buttons rather than its toolbar. Browser only.
 */

// leaflet-draw (a classic plugin extending the global `L`) comes in through the fixes module.
import {
  acceptEveryClick,
  followPointer,
  withoutMapFocus,
} from '#app/components/maps/leaflet-draw-fixes.client.ts'
import type { LatLng } from '#app/domain/geometry/areas.ts'
import { isTooCloseToPlaced } from '#app/domain/geometry/point-spacing.ts'
import L from 'leaflet'
import { useEffect, useRef, useState, type MutableRefObject } from 'react'
import { useMap } from 'react-leaflet'

// The handler's cursor tooltip, in the planner's words (the side panel holds the tools).
L.drawLocal.draw.handlers.polygon.tooltip = {
  start: 'Click to place the first corner.',
  cont: 'Click to place the next corner.',
  end: 'Click the first corner or press Complete to finish.',
}
// Also shown when the first corner is clicked before there are three.
L.drawLocal.draw.handlers.polyline.error = 'An area needs 3 corners, and its edges must not cross.'

export const CURRENT_COLOUR = '#38bdf8'
/** Same look as the paused drawing below (sky dot, white ring), whatever the pointer type. */
const vertexIcon = L.divIcon({
  className: '',
  html: '<span class="block h-3 w-3 rounded-full border-2 border-white bg-sky-500 shadow"></span>',
  iconSize: [12, 12],
  iconAnchor: [6, 6],
})

/** What the side panel's buttons call while Draw Area is on. */
export interface DrawControls {
  /** Removes the last corner (`deleteLastVertex`, or a fresh start for the only one). */
  undoPoint(): void
  /** Closes the area (`completeShape`); `draw:created` then hands it over. */
  complete(): void
  /** Drops the area in progress. */
  reset(): void
}

/** The drawing the handler follows (kept by `usePolygonDrawing`). */
export interface PolygonDrawing {
  /** Draw Area is on. */
  drawing: boolean
  /** The corners of the area in progress. */
  points: LatLng[]
  controlsRef: MutableRefObject<DrawControls | null>
  onPointsChange: (points: LatLng[]) => void
  /** A finished area from the handler; false refuses it (the corners stay in progress). */
  onAreaDrawn: (points: LatLng[]) => boolean
  /** Escape pauses drawing, like the toggle. */
  onCancel: () => void
}

function toLatLng(latlng: L.LatLng): LatLng {
  return { latitude: latlng.lat, longitude: latlng.lng }
}

/**
 * Drives leaflet-draw's polygon handler (`L.Draw.Polygon`) from the Draw Area toggle.
 * The handler owns the corners while drawing; each `draw:drawvertex` copies them into
 * React state, `draw:created` hands a finished area over (the workspace keeps the list
 * and may refuse it), Escape (`draw:canceled`) pauses drawing like the toggle does. A
 * paused drawing stays in React state and is put back into the handler on resume.
 */
export function PolygonDrawer({ draw }: { draw: PolygonDrawing }) {
  const { drawing, points, controlsRef, onPointsChange, onAreaDrawn, onCancel } = draw
  const map = useMap()
  const latest = useRef({ points, onPointsChange, onAreaDrawn, onCancel })
  latest.current = { points, onPointsChange, onAreaDrawn, onCancel }
  const [handler] = useState(() => {
    const polygon = new L.Draw.Polygon(map as L.DrawMap, {
      // showArea must stay false: leaflet-draw 1.0.4 throws on mouse-move with it on.
      showArea: false,
      showLength: false,
      allowIntersection: false,
      // Stay in draw mode after an area is completed, as Draw Area promises.
      repeatMode: true,
      icon: vertexIcon,
      // Leaflet 1.9 reports touch on every Chromium (pointer events); keep one size.
      touchIcon: vertexIcon,
      guidelineDistance: 12,
      shapeOptions: { color: CURRENT_COLOUR, weight: 3, opacity: 1, dashArray: '6 6', fill: false },
    })
    acceptEveryClick(polygon)
    return polygon
  })

  useEffect(() => {
    function loadPoints(list: LatLng[]) {
      for (const p of list) handler.addVertex(L.latLng(p.latitude, p.longitude))
    }
    function startOver() {
      withoutMapFocus(map, () => {
        handler.disable()
        handler.enable()
      })
    }
    function onVertex(event: L.LeafletEvent) {
      const placed = (event as L.DrawEvents.DrawVertex).layers
        .getLayers()
        .map((layer) => toLatLng((layer as L.Marker).getLatLng()))
      const newest = placed[placed.length - 1]
      if (newest && isTooCloseToPlaced(newest, placed.slice(0, -1))) {
        // Fires draw:drawvertex again with the corners as they were.
        handler.deleteLastVertex()
        return
      }
      latest.current.onPointsChange(placed)
    }
    function onCreated(event: L.LeafletEvent) {
      const ring = (event as L.DrawEvents.Created).layer as L.Polygon
      const corners = (ring.getLatLngs()[0] as L.LatLng[]).map(toLatLng)
      if (latest.current.onAreaDrawn(corners)) return
      // Refused (the workspace says why): leaflet-draw has already restarted empty
      // (repeatMode) by the time this microtask runs, so put the corners back.
      queueMicrotask(() => {
        if (handler.enabled()) loadPoints(corners)
      })
    }
    function onCanceled() {
      latest.current.onCancel()
    }
    map.on(L.Draw.Event.DRAWVERTEX, onVertex)
    map.on(L.Draw.Event.CREATED, onCreated)
    map.on('draw:canceled', onCanceled)
    controlsRef.current = {
      undoPoint() {
        if (!handler.enabled()) return
        // deleteLastVertex keeps the last remaining corner; a fresh start removes it.
        if (latest.current.points.length > 1) handler.deleteLastVertex()
        else {
          startOver()
          latest.current.onPointsChange([])
        }
      },
      complete() {
        if (handler.enabled()) withoutMapFocus(map, () => handler.completeShape())
      },
      reset() {
        if (!handler.enabled()) return
        startOver()
        latest.current.onPointsChange([])
      },
    }
    return () => {
      map.off(L.Draw.Event.DRAWVERTEX, onVertex)
      map.off(L.Draw.Event.CREATED, onCreated)
      map.off('draw:canceled', onCanceled)
      controlsRef.current = null
      handler.disable()
    }
  }, [map, handler, controlsRef])

  useEffect(() => {
    map.getContainer().style.cursor = drawing ? 'crosshair' : ''
    if (!drawing) {
      handler.disable()
      map.doubleClickZoom.enable()
      return
    }
    // Double-click zoom would fight point placement while drawing.
    map.doubleClickZoom.disable()
    withoutMapFocus(map, () => handler.enable())
    // Resume a paused area where it stopped.
    for (const p of latest.current.points) handler.addVertex(L.latLng(p.latitude, p.longitude))
    return followPointer(map, handler)
  }, [drawing, map, handler])
  return null
}
