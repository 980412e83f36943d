/**
 * The Map view's interactive map (browser only, loaded by the map route alone): satellite
 * base map, survey areas, each ready raster deliverable as a COG layer (ADR 238), the
 * layer list with opacity, swipe comparison, zoom to the data, the elevation legend, and
 * the measure tools: distance and area in the browser (turf), height and volume
 * from the server's measure calls (signed in only: the share link's viewer has none),
 * and the map notes (`map-notes-layer.client.tsx`).
 */
import { lineString, area as turfArea, length as turfLength, polygon as turfPolygon } from '@turf/turf'
import {
  acceptEveryClick,
  followPointer,
  withoutMapFocus,
} from '#app/components/maps/leaflet-draw-fixes.client.ts'
import { sharedRange } from '#app/domain/deliverables/elevation-ramp.ts'
import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import type { VolumeFigures } from '#app/domain/deliverables/measure-schemas.ts'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import L from 'leaflet'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useMap } from 'react-leaflet'

import { DRAWN_AREA } from './change-ramp.ts'
import { canDrawCog, cogBounds, createCogLayer, heightRangeOf, openCog } from './cog-layer.client.ts'
import { initialOrder, moveLayer, zIndexOf } from './layer-order.ts'
import { NotesInView } from './map-notes-in-view.client.tsx'
import { NotesOnMap, NotesPanel, useNoteEditor } from './map-notes-layer.client.tsx'
import type { NoteRow } from './map-notes.tsx'
import {
  LayerPanel,
  MeasurePanel,
  type BaseChoice,
  type LayerState,
  type LayerView,
  type MeasureMode,
  type MeasureResult,
  type MeasureTools,
} from './map-panels.tsx'
import { SurveyBaseMap, ViewReporter, type MapOutline } from './survey-base-map.client.tsx'

/** A drawn shape's outline: never the change map's red "loss" or blue "gain". */
const DRAW_COLOUR = DRAWN_AREA.outline
const DRAW_FILL = DRAWN_AREA.fill
const vertexIcon = L.divIcon({
  className: '',
  html: '<span class="block h-3 w-3 rounded-full border-2 border-white bg-ink-800 shadow"></span>',
  iconSize: [12, 12],
  iconAnchor: [6, 6],
})

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

type DrawHandler = L.Draw.Polyline | L.Draw.Polygon

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
      const layer = (event as L.DrawEvents.Created).layer as L.Polyline
      group.clearLayers()
      group.addLayer(layer)
      const latlngs = layer.getLatLngs().flat(2) as L.LatLng[]
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
    if (mode === 'height') {
      map.getContainer().style.cursor = 'crosshair'
      const onClick = (event: L.LeafletMouseEvent) => {
        drawn.current.clearLayers()
        L.circleMarker(event.latlng, {
          radius: 6,
          color: '#fff',
          weight: 2,
          fillColor: DRAW_COLOUR,
          fillOpacity: 1,
        }).addTo(drawn.current)
        latest.current.onPoint(event.latlng)
      }
      map.on('click', onClick)
      return () => {
        map.off('click', onClick)
        map.getContainer().style.cursor = ''
      }
    }
    const shapeOptions = { color: DRAW_COLOUR, weight: 3, opacity: 1, fillColor: DRAW_FILL, fillOpacity: 0.2 }
    const common = {
      icon: vertexIcon,
      touchIcon: vertexIcon,
      showLength: false,
      guidelineDistance: 12,
      shapeOptions,
    }
    const handler: DrawHandler =
      mode === 'distance'
        ? new L.Draw.Polyline(map as L.DrawMap, { ...common, repeatMode: true })
        : new L.Draw.Polygon(map as L.DrawMap, {
            ...common,
            showArea: false,
            allowIntersection: false,
            repeatMode: true,
          })
    acceptEveryClick(handler)
    withoutMapFocus(map, () => handler.enable())
    const stopFollowing = followPointer(map, handler)
    finishRef.current = () => handler.completeShape()
    return () => {
      finishRef.current = null
      stopFollowing()
      handler.disable()
    }
  }, [map, mode, finishRef])
  return null
}

/** The Map view's layer list state: which layers show, at what opacity, and the swipe. */
function useLayerView(layers: MapLayer[]): LayerView {
  const hasImagery = layers.some((l) => l.kind === 'orthomosaic')
  const [states, setStates] = useState<Record<number, LayerState>>(() =>
    Object.fromEntries(
      // Imagery shows at first; an elevation model too when there is no imagery.
      layers.map((l) => [l.id, { visible: l.kind === 'orthomosaic' || !hasImagery, opacity: 100 }]),
    ),
  )
  const [ranges, setRanges] = useState<LayerView['ranges']>({})
  const [problems, setProblems] = useState<LayerView['problems']>({})
  const [swipe, setSwipe] = useState<LayerView['swipe']>(null)
  const [order, setOrder] = useState(() => initialOrder(layers))
  // Stable, so that the map's layers are not rebuilt on every render.
  const onRange = useRef((id: number, range: { min: number; max: number }) =>
    setRanges((r) => ({ ...r, [id]: range })),
  ).current
  const onProblem = useRef((id: number, message: string) =>
    setProblems((p) => ({ ...p, [id]: message })),
  ).current
  return {
    layers,
    states,
    ranges,
    problems,
    swipe,
    order,
    onChange: (id, state) => setStates((s) => ({ ...s, [id]: state })),
    onMove: (id, direction) => setOrder((current) => moveLayer(current, id, direction)),
    onSwipe: (next) => {
      setSwipe(next)
      if (next)
        setStates((s) => ({
          ...s,
          [next.leftId]: { ...s[next.leftId]!, visible: true },
          [next.rightId]: { ...s[next.rightId]!, visible: true },
        }))
    },
    onSwipePosition: (position) => setSwipe((current) => (current ? { ...current, position } : current)),
    onRange,
    onProblem,
  }
}

/**
 * The measure tools' state: the tool chosen, its result, the elevation model and base plane
 * for height and volume. `MeasureOnMap` draws with it, `MeasurePanel` shows and changes it.
 */
function useMeasureTools(projectId: number | null, layers: MapLayer[]) {
  const [mode, setMode] = useState<MeasureMode | null>(null)
  const [result, setResult] = useState<MeasureResult | null>(null)
  const [base, setBase] = useState<BaseChoice>('edge-mean')
  // The last polygon's edge mean: where a typed base height starts.
  const edgeMean = useRef<number | null>(null)
  const elevationLayers = layers.filter((l) => l.kind === 'elevation')
  const [elevationId, setElevationId] = useState<number | null>(elevationLayers[0]?.id ?? null)
  const finishRef = useRef<(() => void) | null>(null)
  const lastRing = useRef<[number, number][] | null>(null)
  // Only the newest measurement is shown: a slower answer to an earlier one must not overwrite it.
  const measurement = useRef(0)
  function showNew(next: MeasureResult | null) {
    measurement.current++
    setResult(next)
  }
  function startMeasuring() {
    const ticket = ++measurement.current
    setResult({ kind: 'busy' })
    return (next: MeasureResult) => {
      if (ticket === measurement.current) setResult(next)
      return ticket === measurement.current
    }
  }

  async function measureVolume(ring: [number, number][], chosenBase: BaseChoice) {
    if (!elevationId || projectId === null) return
    lastRing.current = ring
    const show = startMeasuring()
    // A typed height not known yet is measured at the edge mean, which then fills the box.
    const untyped = typeof chosenBase === 'object' && chosenBase.elevationM === null
    const response = await fetch(`/api/projects/${projectId}/deliverables/${elevationId}/volume`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        polygon: { type: 'Polygon', coordinates: [ring] },
        base: untyped ? 'edge-mean' : chosenBase,
      }),
    })
    if (!response.ok) return void show({ kind: 'error', message: await readError(response) })
    const figures = (await response.json()) as VolumeFigures
    if (!show({ kind: 'volume', figures })) return
    edgeMean.current = figures.edgeMeanM
    if (untyped && figures.edgeMeanM !== null) setBase({ elevationM: toCentimetre(figures.edgeMeanM) })
  }

  function onShape(shapeMode: MeasureMode, latlngs: L.LatLng[]) {
    const coords = latlngs.map((p) => [p.lng, p.lat] as [number, number])
    if (shapeMode === 'distance') {
      return showNew({ kind: 'distance', metres: turfLength(lineString(coords), { units: 'meters' }) })
    }
    const ring = [...coords, coords[0]!]
    if (shapeMode === 'area') {
      return showNew({
        kind: 'area',
        squareMetres: turfArea(turfPolygon([ring])),
        perimeterMetres: turfLength(lineString(ring), { units: 'meters' }),
      })
    }
    void measureVolume(ring, base)
  }

  async function measureHeight(latlng: L.LatLng) {
    if (!elevationId || projectId === null) return
    const show = startMeasuring()
    const response = await fetch(
      `/api/projects/${projectId}/deliverables/${elevationId}/elevation?lat=${latlng.lat.toFixed(8)}&lng=${latlng.lng.toFixed(8)}`,
    )
    if (!response.ok) return void show({ kind: 'error', message: await readError(response) })
    const body = (await response.json()) as { elevationM: number | null }
    show({ kind: 'height', elevationM: body.elevationM, lat: latlng.lat, lng: latlng.lng })
  }

  const tools: MeasureTools = {
    mode,
    result,
    base,
    elevationLayers,
    elevationId,
    serverMeasures: projectId !== null,
    onElevation: setElevationId,
    onMode: (next) => {
      showNew(null)
      setMode((current) => (current === next ? null : next))
    },
    onFinish: () => finishRef.current?.(),
    onBase: (next) => {
      // "A height I type" starts at the last polygon's edge mean (or at the next one's), never at 0 m.
      const chosen: BaseChoice =
        next !== 'height'
          ? next
          : typeof base === 'object'
            ? base
            : { elevationM: edgeMean.current === null ? null : toCentimetre(edgeMean.current) }
      setBase(chosen)
      if (mode === 'volume' && lastRing.current) void measureVolume(lastRing.current, chosen)
    },
  }
  return { tools, finishRef, onShape, onPoint: (latlng: L.LatLng) => void measureHeight(latlng) }
}

const toCentimetre = (metres: number) => Math.round(metres * 100) / 100

export async function readError(response: Response) {
  try {
    return ((await response.json()) as { error?: string }).error ?? 'The measurement failed.'
  } catch {
    return 'The measurement failed.'
  }
}

export function DeliverablesMap({
  tileUrl,
  projectId,
  areas,
  layers,
  notes = [],
  notesVersion,
  outlines = [],
}: {
  tileUrl: string
  /** The project whose signed-in measure calls give height and volume; none on a share link. */
  projectId: number | null
  areas: SurveyArea[]
  layers: MapLayer[]
  /** The map notes: placed and changed by the project's members, shown read-only through a share link. */
  notes?: NoteRow[]
  /** A member's map loads the notes by bounding box instead, again when this changes. */
  notesVersion?: string
  /** Design surfaces' outlines, dashed and named. */
  outlines?: MapOutline[]
}) {
  const layerView = useLayerView(layers)
  const { swipe } = layerView
  const measure = useMeasureTools(projectId, layers)
  const noteEditor = useNoteEditor()
  // One drawing tool at a time: a note's shape or a measure.
  const measureMode = measure.tools.mode
  const { drawing, setDrawing } = noteEditor
  const stopMeasure = useRef(measure.tools.onMode)
  stopMeasure.current = measure.tools.onMode
  useEffect(() => {
    if (drawing && measureMode) stopMeasure.current(measureMode)
    // Only a newly chosen note tool stops the measure.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [drawing])
  useEffect(() => {
    if (measureMode) setDrawing(null)
  }, [measureMode, setDrawing])
  const [view, setView] = useState<{ zoom: number; lat: number } | null>(null)
  const mapRef = useRef<L.Map | null>(null)
  const bounds = boundsOf(layers, areas)
  const onView = useRef((v: { zoom: number; lat: number }) => setView(v)).current

  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_20rem]">
      <div className="relative">
        <div
          className="isolate h-[60vh] min-h-[22rem] overflow-hidden rounded-xl border border-ink-200 bg-ink-800"
          data-testid="deliverables-map"
          data-zoom={view?.zoom}
          data-center-lat={view?.lat}
        >
          <SurveyBaseMap bounds={bounds} tileUrl={tileUrl} areas={areas} outlines={outlines} mapRef={mapRef}>
            <RasterLayers view={layerView} />
            <MeasureOnMap
              mode={measure.tools.mode}
              finishRef={measure.finishRef}
              onShape={measure.onShape}
              onPoint={measure.onPoint}
            />
            {projectId !== null && notesVersion !== undefined ? (
              <NotesInView projectId={projectId} version={notesVersion} editor={noteEditor} />
            ) : (
              <NotesOnMap notes={notes} projectId={projectId} editor={noteEditor} />
            )}
            <ViewReporter onView={onView} />
          </SurveyBaseMap>
        </div>
        {swipe ? (
          <>
            <div
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 z-[500] w-0.5 bg-white shadow"
              style={{ left: `${swipe.position}%` }}
            />
            <label className="mt-2 block text-sm text-ink-700">
              <span className="sr-only">Swipe position</span>
              <input
                type="range"
                min={0}
                max={100}
                value={swipe.position}
                onChange={(e) => layerView.onSwipePosition(Number(e.target.value))}
                className="w-full accent-sky-600"
                aria-label="Swipe position"
              />
            </label>
          </>
        ) : null}
      </div>
      <div className="space-y-4">
        <LayerPanel
          view={layerView}
          onZoomTo={(id) => {
            const map = mapRef.current
            if (!map) return
            const target =
              id === null
                ? bounds
                : boundsOf(
                    layers.filter((l) => l.id === id),
                    [],
                  )
            if (target.isValid()) map.fitBounds(target, { padding: [16, 16] })
          }}
        />
        <MeasurePanel measure={measure.tools} />
        {projectId !== null ? <NotesPanel projectId={projectId} editor={noteEditor} /> : null}
      </div>
    </div>
  )
}
