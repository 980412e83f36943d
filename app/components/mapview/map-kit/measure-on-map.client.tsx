/**
 * The measure tools on a map (the project Map view's, and the site Map view's change
 * polygon): the chosen shape drawn with leaflet-draw, or a height's point with a click;
 * the last one drawn stays on the map.
 */
import L from 'leaflet'
import { useEffect, useRef } from 'react'
import { useMap } from 'react-leaflet'

import { DRAWN_AREA } from '../change-ramp.ts'
import type { MeasureMode } from '../measure-panel.tsx'
import { drawnShape, drawShape, pickPoint } from './draw-shape.client.ts'

/** A drawn shape's outline: never the change map's red "loss" or blue "gain". */
const DRAW_COLOUR = DRAWN_AREA.outline

/** The measure tools on the map: a leaflet-draw handler for shapes, a click for heights. */
export function MeasureOnMap({
  mode,
  finishRef,
  onShape,
  onPoint,
}: {
  mode: MeasureMode | null
  finishRef: React.MutableRefObject<(() => void) | null>
  onShape: (mode: MeasureMode, latlngs: L.LatLng[]) => void
  onPoint: (latlng: L.LatLng) => void
}) {
  const map = useMap()
  const drawn = useRef<L.FeatureGroup>(L.featureGroup())
  const latest = useRef({ mode, onShape, onPoint })
  latest.current = { mode, onShape, onPoint }

  useEffect(() => {
    const group = drawn.current
    group.addTo(map)
    const onCreated = (event: L.LeafletEvent) => {
      // A note's shape (the notes panel) is not a measure.
      if (!latest.current.mode) return
      const { layer, latlngs } = drawnShape(event)
      group.clearLayers()
      group.addLayer(layer)
      if (latest.current.mode) latest.current.onShape(latest.current.mode, latlngs)
    }
    map.on(L.Draw.Event.CREATED, onCreated)
    return () => {
      map.off(L.Draw.Event.CREATED, onCreated)
      group.remove()
    }
  }, [map])

  useEffect(() => {
    if (!mode) return
    if (mode === 'height')
      return pickPoint(map, (latlng) => {
        drawn.current.clearLayers()
        L.circleMarker(latlng, {
          radius: 6,
          color: '#fff',
          weight: 2,
          fillColor: DRAW_COLOUR,
          fillOpacity: 1,
        }).addTo(drawn.current)
        latest.current.onPoint(latlng)
      })
    return drawShape(map, mode === 'distance' || mode === 'profile' ? 'line' : 'polygon', {
      colour: DRAW_COLOUR,
      fill: DRAWN_AREA.fill,
      repeat: true,
      finishRef,
    })
  }, [map, mode, finishRef])
  return null
}
