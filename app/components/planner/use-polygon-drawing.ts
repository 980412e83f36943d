import { surveyAreaProblem, type LatLng } from '#app/domain/geometry/areas.ts'
import { useCallback, useRef, useState } from 'react'

import type { DrawControls, PolygonDrawing } from './polygon-drawer.client.tsx'

/**
 * The planner's drawing: the finished areas, the corners of the area in progress, whether
 * Draw Area is on, and the handlers leaflet-draw (`PolygonDrawer`) and the side panel's
 * buttons call. One state, read by the map as one `draw` and by the panel.
 * `onNotice` shows why an area was refused (null clears it).
 */
export function usePolygonDrawing(initialAreas: LatLng[][], onNotice: (notice: string | null) => void) {
  const [areas, setAreas] = useState<LatLng[][]>(initialAreas)
  const [points, setPoints] = useState<LatLng[]>([])
  const [drawing, setDrawing] = useState(initialAreas.length === 0)
  // leaflet-draw's polygon handler, as driven by the side panel's buttons.
  const controlsRef = useRef<DrawControls | null>(null)

  // The handler's corners (every draw:drawvertex); the 5 m rule is applied before this.
  const onPointsChange = useCallback(
    (next: LatLng[]) => {
      onNotice(null)
      setPoints(next)
    },
    [onNotice],
  )

  /** Takes a finished area into the list, or says why not (false: it stays in progress). */
  function onAreaDrawn(corners: LatLng[]) {
    const problem = surveyAreaProblem(corners)
    if (problem) {
      onNotice(problem)
      return false
    }
    setAreas((list) => [...list, corners])
    setPoints([])
    onNotice(null)
    return true
  }

  const onCancel = useCallback(() => setDrawing(false), [])

  function completeArea() {
    if (points.length < 3) return
    // Checked first so a refused area never leaves leaflet-draw's hands.
    const problem = surveyAreaProblem(points)
    if (problem) {
      onNotice(problem)
      return
    }
    // Drawing: completeShape() → draw:created → onAreaDrawn. Paused: straight from state.
    if (drawing && controlsRef.current) controlsRef.current.complete()
    else onAreaDrawn(points)
  }

  function undoPoint() {
    if (drawing && controlsRef.current) controlsRef.current.undoPoint()
    else setPoints((list) => list.slice(0, -1))
  }

  function clear() {
    controlsRef.current?.reset()
    setAreas([])
    setPoints([])
    onNotice(null)
  }

  const draw: PolygonDrawing = { drawing, points, controlsRef, onPointsChange, onAreaDrawn, onCancel }
  return { draw, areas, setAreas, setPoints, setDrawing, completeArea, undoPoint, clear }
}
