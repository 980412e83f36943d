/**
 * The site Map view's interactive map (browser only): the Before survey's
 * orthomosaic on the left of the swipe and the After survey's on the right (the project Map
 * view's `RasterLayers` and swipe, from `map-kit/`), the elevation change layer over them with its legend, and
 * a drawn polygon's cut, fill and net change from the server's change call (the project Map
 * view's `MeasureOnMap` drawing). The polygons drawn go into the site report.
 */
import { formatChangeMinimum } from '#app/domain/deliverables/change-settings.ts'
import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import type { ChangeFigures } from '#app/domain/deliverables/measure-schemas.ts'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import type L from 'leaflet'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useMap } from 'react-leaflet'

import { changeLimitFor, createChangeLayer, overlapOf } from './change-layer.client.ts'
import { changeGradient, changeLegendTicks, type ChangeScale } from './change-ramp.ts'
import { canDrawCog, openCog } from './cog-layer.client.ts'
import { MeasureOnMap } from './map-kit/measure-on-map.client.tsx'
import { boundsOf, RasterLayers } from './map-kit/raster-layers.client.tsx'
import { MEASURE_FAILED, readApiError } from './map-kit/read-error.ts'
import { SurveyBaseMap } from './map-kit/survey-base-map.client.tsx'
import { SwipeDivider } from './map-kit/swipe-divider.tsx'
import { ElevationLegend, OpacitySlider, type LayerState } from './map-panels.tsx'
import { ChangeTable, SiteReportForm, type DrawnChange } from './site-map-sections.tsx'

type Pair = { before: MapLayer; after: MapLayer; minimumM: number }

/**
 * The elevation change layer's state: shown or not, its opacity, and what drawing it found
 * (the legend's limit, or why it could not be drawn). `ChangeOnMap` draws it and reports
 * back; the side panel shows and changes it.
 */
function useChangeLayer() {
  const [visible, setVisible] = useState(true)
  const [opacity, setOpacity] = useState(80)
  const [scale, setScale] = useState<ChangeScale | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  // Stable, so that the layer is not rebuilt on every render.
  const onScale = useRef((value: ChangeScale) => setScale(value)).current
  const onProblem = useRef((message: string) => setProblem(message)).current
  return { visible, setVisible, opacity, setOpacity, scale, problem, onScale, onProblem }
}

type ChangeLayer = ReturnType<typeof useChangeLayer>

/** Adds the change layer once both models are open; reports its legend limit or a failure. */
function ChangeOnMap({ pair, changeLayer }: { pair: Pair; changeLayer: ChangeLayer }) {
  const { visible, opacity, onScale, onProblem } = changeLayer
  const map = useMap()
  const [layer, setLayer] = useState<L.GridLayer | null>(null)
  useEffect(() => {
    let cancelled = false
    void (async () => {
      try {
        const [before, after] = await Promise.all([openCog(pair.before.cogUrl), openCog(pair.after.cogUrl)])
        const overlap = overlapOf(before, after)
        if (!canDrawCog(before) || !canDrawCog(after)) throw new Error('unsupported')
        if (!overlap) return onProblem('The two elevation models do not overlap.')
        const scale = {
          limitM: await changeLimitFor(before, after, overlap, pair.minimumM),
          minimumM: pair.minimumM,
        }
        if (cancelled) return
        onScale(scale)
        setLayer(createChangeLayer(before, after, scale, { className: 'change-layer', bounds: overlap }))
      } catch {
        if (!cancelled) onProblem('The elevation change could not be drawn.')
      }
    })()
    return () => {
      cancelled = true
    }
  }, [pair, onScale, onProblem])
  useEffect(() => {
    if (!layer) return
    if (!visible) {
      layer.remove()
      return
    }
    layer.addTo(map)
    layer.setZIndex(200)
    layer.setOpacity(opacity / 100)
  }, [layer, visible, opacity, map])
  useEffect(() => () => void layer?.remove(), [layer])
  return null
}

function ChangeLegend({ scale }: { scale: ChangeScale }) {
  const ticks = changeLegendTicks(scale.limitM)
  return (
    <div className="mt-3" data-testid="change-legend" data-limit-m={scale.limitM}>
      <div
        className="h-2.5 rounded-full border border-ink-100"
        style={{ background: changeGradient(scale) }}
        aria-hidden="true"
      />
      <p className="mt-1 flex justify-between text-xs tabular-nums text-ink-600">
        {ticks.map((t) => (
          <span key={t.valueM}>{t.label}</span>
        ))}
      </p>
      <p className="mt-1 flex justify-between text-xs text-ink-600">
        <span>Lower (loss)</span>
        <span>Higher (gain)</span>
      </p>
      <p className="mt-1 text-xs text-ink-600">
        Under {formatChangeMinimum(scale.minimumM)} either way: left clear on the map (the figures count every
        cell).
      </p>
    </div>
  )
}

export function SiteChangeMap({
  tileUrl,
  siteId,
  areas,
  before,
  after,
  change,
}: {
  tileUrl: string
  siteId: number
  areas: SurveyArea[]
  before: { projectId: number; label: string; orthomosaic: MapLayer | null }
  after: { projectId: number; label: string; orthomosaic: MapLayer | null }
  /** Both elevation models, when the pair has them. */
  change: {
    before: MapLayer
    after: MapLayer
    afterProjectId: number
    minimumM: number
    /** Both models' height range: the one stretch of their colours. */
    range: { min: number; max: number } | null
  } | null
}) {
  const orthos = [before.orthomosaic, after.orthomosaic].filter((l): l is MapLayer => Boolean(l))
  const models = change ? [change.before, change.after] : []
  // The swipe shows the two surveys' imagery, or their elevation models in one stretch.
  const [show, setShow] = useState<'imagery' | 'elevation'>(
    orthos.length || !change ? 'imagery' : 'elevation',
  )
  const layers = useRef([...orthos, ...models]).current
  // Both layers of the kind shown are on; the swipe decides which side of the divider each is seen on.
  const states = useMemo<Record<number, LayerState>>(
    () =>
      Object.fromEntries(
        layers.map((l) => [
          l.id,
          { visible: (l.kind === 'elevation') === (show === 'elevation'), opacity: 100 },
        ]),
      ),
    [layers, show],
  )
  const [position, setPosition] = useState(50)
  const [left, right] =
    show === 'elevation' ? [change?.before, change?.after] : [before.orthomosaic, after.orthomosaic]
  const swipe = left && right ? { leftId: left.id, rightId: right.id, position } : null
  const changeLayer = useChangeLayer()
  const [drawing, setDrawing] = useState(false)
  const [result, setResult] = useState<
    { kind: 'busy' } | { kind: 'error'; message: string } | { kind: 'figures'; figures: ChangeFigures } | null
  >(null)
  const [drawn, setDrawn] = useState<DrawnChange[]>([])
  const finishRef = useRef<(() => void) | null>(null)
  const mapRef = useRef<L.Map | null>(null)
  const pair = useRef<Pair | null>(
    change ? { before: change.before, after: change.after, minimumM: change.minimumM } : null,
  ).current
  const noop = useRef(() => {}).current
  const bounds = boundsOf([...orthos, ...(change ? [change.before, change.after] : [])], areas)

  async function measureChange(latlngs: L.LatLng[]) {
    if (!change) return
    const coords = latlngs.map((p) => [p.lng, p.lat] as [number, number])
    const ring = [...coords, coords[0]!]
    setResult({ kind: 'busy' })
    const response = await fetch(
      `/api/projects/${change.afterProjectId}/deliverables/${change.after.id}/change`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          againstFileId: change.before.id,
          polygon: { type: 'Polygon', coordinates: [ring] },
        }),
      },
    )
    if (!response.ok)
      return setResult({ kind: 'error', message: await readApiError(response, MEASURE_FAILED) })
    const figures = (await response.json()) as ChangeFigures
    setResult({ kind: 'figures', figures })
    setDrawn((list) => [...list, { ring, figures }])
  }

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div>
        <div
          className="relative isolate h-[60vh] min-h-[22rem] overflow-hidden rounded-xl border border-ink-200 bg-ink-800"
          data-testid="site-change-map"
        >
          <SurveyBaseMap bounds={bounds} tileUrl={tileUrl} areas={areas} mapRef={mapRef}>
            <RasterLayers view={{ layers, states, swipe }} />
            {pair ? <ChangeOnMap pair={pair} changeLayer={changeLayer} /> : null}
            <MeasureOnMap
              mode={drawing ? 'area' : null}
              finishRef={finishRef}
              onShape={(_, latlngs) => void measureChange(latlngs)}
              onPoint={noop}
            />
          </SurveyBaseMap>
          {swipe ? <SwipeDivider position={position} /> : null}
        </div>
        {swipe ? (
          <>
            <div className="mt-2 flex items-center gap-3 text-xs text-ink-700">
              <span className="w-1/3 truncate" data-testid="swipe-left-label">
                ← Before: {before.label}
              </span>
              <input
                type="range"
                min={0}
                max={100}
                value={position}
                onChange={(e) => setPosition(Number(e.target.value))}
                className="w-1/3 accent-sky-600"
                aria-label="Swipe position"
              />
              <span className="w-1/3 truncate text-right" data-testid="swipe-right-label">
                After: {after.label} →
              </span>
            </div>
          </>
        ) : null}
      </div>
      <div className="space-y-4">
        {change && orthos.length ? (
          <fieldset className="card p-4" data-testid="swipe-layers">
            <legend className="float-left mb-2 w-full text-sm font-semibold uppercase tracking-wide text-ink-500">
              Swipe between
            </legend>
            {/* A flex box sits beside a float rather than under it: clear the floated legend. */}
            <div className="clear-left flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-900">
              {(
                [
                  ['imagery', 'Orthomosaics'],
                  ['elevation', 'Elevation models'],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="swipe-layers"
                    value={value}
                    checked={show === value}
                    onChange={() => setShow(value)}
                  />
                  {label}
                </label>
              ))}
            </div>
            {show === 'elevation' && change.range ? <ElevationLegend range={change.range} /> : null}
          </fieldset>
        ) : show === 'elevation' && change?.range ? (
          <section aria-label="Elevation models" className="card p-4">
            <ElevationLegend range={change.range} />
          </section>
        ) : null}
        <section aria-labelledby="change-layer-heading" className="card p-4">
          <h2
            id="change-layer-heading"
            className="mb-3 text-sm font-semibold uppercase tracking-wide text-ink-500"
          >
            Elevation change
          </h2>
          {change ? (
            <>
              <label className="flex items-center gap-2 text-sm text-ink-900">
                <input
                  type="checkbox"
                  checked={changeLayer.visible}
                  onChange={(e) => changeLayer.setVisible(e.target.checked)}
                />
                Show After − Before
              </label>
              <OpacitySlider
                of="the elevation change"
                value={changeLayer.opacity}
                onChange={changeLayer.setOpacity}
              />
              {changeLayer.scale ? <ChangeLegend scale={changeLayer.scale} /> : null}
              {changeLayer.problem ? (
                <p className="mt-2 text-xs text-red-700" role="status">
                  {changeLayer.problem}
                </p>
              ) : null}
            </>
          ) : (
            <p className="text-sm text-ink-600">Both surveys need an elevation model to show the change.</p>
          )}
        </section>
        {change ? (
          <section aria-labelledby="change-measure-heading" className="card p-4">
            <h2
              id="change-measure-heading"
              className="mb-3 text-sm font-semibold uppercase tracking-wide text-ink-500"
            >
              Change in an area
            </h2>
            <div className="flex gap-2">
              <button
                type="button"
                aria-pressed={drawing}
                className={drawing ? 'btn-primary btn-sm' : 'btn-secondary btn-sm'}
                onClick={() => {
                  setResult(null)
                  setDrawing((d) => !d)
                }}
              >
                Draw an area
              </button>
              {drawing ? (
                <button type="button" className="btn-secondary btn-sm" onClick={() => finishRef.current?.()}>
                  Finish
                </button>
              ) : null}
            </div>
            {drawing ? (
              <p className="mt-2 text-xs text-ink-600">
                Click the corners, then click the first corner or Finish.
              </p>
            ) : null}
            <div aria-live="polite" className="mt-3 text-sm" data-testid="change-result">
              {result?.kind === 'busy' ? <p className="text-ink-600">Measuring…</p> : null}
              {result?.kind === 'error' ? <p className="text-red-700">{result.message}</p> : null}
              {result?.kind === 'figures' ? <ChangeTable figures={result.figures} /> : null}
            </div>
            {drawn.length ? (
              <div className="mt-3 border-t border-ink-100 pt-3">
                <SiteReportForm
                  siteId={siteId}
                  beforeId={before.projectId}
                  afterId={after.projectId}
                  drawn={drawn}
                />
              </div>
            ) : null}
          </section>
        ) : null}
      </div>
    </div>
  )
}
