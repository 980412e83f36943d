import { lineString, area as turfArea, length as turfLength, polygon as turfPolygon } from '@turf/turf'
import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import type { VolumeFigures } from '#app/domain/deliverables/measure-schemas.ts'
import type { ProfileFigures } from '#app/domain/deliverables/profile.server.ts'
import type L from 'leaflet'
import { useRef, useState } from 'react'

import { MEASURE_FAILED, readApiError } from './map-kit/read-error.ts'
import type { BaseChoice, MeasureMode, MeasureResult, MeasureTools } from './measure-panel.tsx'

/**
 * The measure tools' state: the tool chosen, its result, the elevation model and base plane
 * for height, volume and profile. `MeasureOnMap` draws with it, `MeasurePanel` shows and changes it.
 */
export function useMeasureTools(projectId: number | null, layers: MapLayer[]) {
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

  /** A measure of the chosen elevation model on the server; its body, unless a newer measure began. */
  async function measureOnServer<Body>(
    call: string,
    json: unknown,
    toResult: (body: Body) => MeasureResult,
  ): Promise<Body | null> {
    if (!elevationId || projectId === null) return null
    const show = startMeasuring()
    const init =
      json === undefined ? undefined : { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(json) }
    const response = await fetch(
      `/api/projects/${projectId}/deliverables/${elevationId}/${call}`,
      init,
    ).catch(() => null)
    // A lost connection ends the measure too, never leaving it "Measuring…".
    if (!response?.ok) {
      show({
        kind: 'error',
        message: response ? await readApiError(response, MEASURE_FAILED) : MEASURE_FAILED,
      })
      return null
    }
    const body = (await response.json()) as Body
    return show(toResult(body)) ? body : null
  }

  async function measureVolume(ring: [number, number][], chosenBase: BaseChoice) {
    lastRing.current = ring
    // A typed height not known yet is measured at the edge mean, which then fills the box.
    const untyped = typeof chosenBase === 'object' && chosenBase.elevationM === null
    const figures = await measureOnServer<VolumeFigures>(
      'volume',
      { polygon: { type: 'Polygon', coordinates: [ring] }, base: untyped ? 'edge-mean' : chosenBase },
      (body) => ({ kind: 'volume', figures: body }),
    )
    if (!figures) return
    edgeMean.current = figures.edgeMeanM
    if (untyped && figures.edgeMeanM !== null) setBase({ elevationM: toCentimetre(figures.edgeMeanM) })
  }

  function onShape(shapeMode: MeasureMode, latlngs: L.LatLng[]) {
    const coords = latlngs.map((p) => [p.lng, p.lat] as [number, number])
    if (shapeMode === 'profile') {
      const line = { type: 'LineString', coordinates: coords }
      return void measureOnServer<ProfileFigures>(
        'profile',
        { line, samples: PROFILE_SAMPLES },
        (figures) => ({
          kind: 'profile',
          figures,
        }),
      )
    }
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

  function measureHeight(latlng: L.LatLng) {
    const at = `lat=${latlng.lat.toFixed(8)}&lng=${latlng.lng.toFixed(8)}`
    void measureOnServer<{ elevationM: number | null }>(`elevation?${at}`, undefined, (body) => ({
      kind: 'height',
      elevationM: body.elevationM,
      lat: latlng.lat,
      lng: latlng.lng,
    }))
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
  return { tools, finishRef, onShape, onPoint: measureHeight }
}

const JSON_HEADERS = { 'Content-Type': 'application/json' }
/** Points along a drawn profile: the API's default, a chart's worth. */
const PROFILE_SAMPLES = 200

const toCentimetre = (metres: number) => Math.round(metres * 100) / 100
