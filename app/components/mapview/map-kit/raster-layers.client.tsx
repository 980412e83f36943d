/**
 * The deliverables' raster layers on a map (the project Map view, the share viewer and the
 * site Map view): each ready raster as a COG layer (ADR 238), or its preview image where the
 * browser cannot draw the COG, in the layer list's order and opacity, with the swipe's clip.
 */
import { sharedRange } from '#app/domain/deliverables/elevation-ramp.ts'
import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import L from 'leaflet'
import { useEffect, useMemo, useRef } from 'react'
import { useMap } from 'react-leaflet'

import { canDrawCog, cogBounds, createCogLayer, heightRangeOf, openCog } from '../cog-layer.client.ts'
import { initialOrder, zIndexOf } from '../layer-order.ts'
import type { LayerView } from '../map-panels.tsx'

/** What the map opens on: every layer, or the survey areas when there is none. */
export function boundsOf(layers: MapLayer[], areas: SurveyArea[]) {
  const bounds = L.latLngBounds([])
  for (const l of layers)
    bounds.extend([
      [l.boundsWgs84[1], l.boundsWgs84[0]],
      [l.boundsWgs84[3], l.boundsWgs84[2]],
    ])
  if (!bounds.isValid())
    for (const a of areas) for (const p of a.coordinates) bounds.extend([p.latitude, p.longitude])
  return bounds
}

/** Keeps the Leaflet layers in step with the panel's state; reports ranges and failures. */
export function RasterLayers({
  view,
}: {
  /** The site map's layers report no ranges or problems: it shows two orthomosaics, always. */
  view: Pick<LayerView, 'layers' | 'states' | 'swipe'> &
    Partial<Pick<LayerView, 'order' | 'onRange' | 'onProblem'>>
}) {
  const { layers, states, swipe, order, onRange, onProblem } = view
  const stack = useMemo(() => order ?? initialOrder(layers), [order, layers])
  const map = useMap()
  const created = useRef(new Map<number, Promise<L.Layer | null>>())
  const live = useRef(new Map<number, L.Layer>())

  useEffect(() => {
    for (const layer of layers) {
      const state = states[layer.id]
      if (!state?.visible || created.current.has(layer.id)) continue
      created.current.set(
        layer.id,
        (async () => {
          try {
            const cog = await openCog(layer.cogUrl)
            if (!canDrawCog(cog)) {
              if (!layer.previewUrl) throw new Error('unsupported')
              const [w, s, e, n] = layer.boundsWgs84
              return L.imageOverlay(layer.previewUrl, [
                [s, w],
                [n, e],
              ])
            }
            let paint: Parameters<typeof createCogLayer>[1] = { kind: 'orthomosaic' }
            if (layer.kind === 'elevation') {
              // Every elevation model on one map is stretched over all of them: one colour, one height.
              const range =
                layer.minValue !== null && layer.maxValue !== null
                  ? sharedRange(layers.filter((l) => l.kind === 'elevation'))
                  : layer.rendered
                    ? null
                    : await heightRangeOf(cog)
              if (range) onRange?.(layer.id, range)
              // A rendered copy (view-only link) is colours already: painted like imagery.
              if (!layer.rendered) paint = { kind: 'elevation', min: range?.min ?? 0, max: range?.max ?? 1 }
            }
            const leafletLayer = createCogLayer(cog, paint, {
              bounds: cogBounds(cog),
              className: `cog-layer-${layer.id}`,
            })
            return leafletLayer
          } catch {
            onProblem?.(layer.id, 'This layer could not be loaded.')
            return null
          }
        })(),
      )
    }
    for (const layer of layers) {
      void created.current.get(layer.id)?.then((leafletLayer) => {
        if (!leafletLayer) return
        const state = states[layer.id]
        if (state?.visible) {
          if (!map.hasLayer(leafletLayer)) leafletLayer.addTo(map)
          live.current.set(layer.id, leafletLayer)
          ;(leafletLayer as L.GridLayer).setOpacity?.(state.opacity / 100)
          // The layer list's order, top of the list on top; the swipe's right-hand layer (clipped) over all.
          ;(leafletLayer as L.GridLayer).setZIndex?.(zIndexOf(stack, layer.id, swipe?.rightId))
        } else if (map.hasLayer(leafletLayer)) {
          leafletLayer.remove()
          live.current.delete(layer.id)
        }
      })
    }
  }, [layers, states, stack, swipe?.rightId, map, onRange, onProblem])

  // Swipe: the right-hand layer shows only right of the divider, over the left-hand one.
  useEffect(() => {
    const clip = () => {
      for (const [id, layer] of live.current) {
        const container = (layer as L.GridLayer).getContainer?.() ?? (layer as L.ImageOverlay).getElement?.()
        if (!container) continue
        if (!swipe || id !== swipe.rightId) {
          container.style.clip = ''
          continue
        }
        const nw = map.containerPointToLayerPoint([0, 0])
        const se = map.containerPointToLayerPoint(map.getSize())
        const x = nw.x + (map.getSize().x * swipe.position) / 100
        container.style.clip = `rect(${nw.y}px, ${se.x}px, ${se.y}px, ${x}px)`
      }
    }
    clip()
    map.on('move zoomend', clip)
    const timer = window.setInterval(clip, 500)
    return () => {
      map.off('move zoomend', clip)
      window.clearInterval(timer)
    }
  }, [map, swipe, states])
  return null
}
