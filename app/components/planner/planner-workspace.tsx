/**
 * The interactive planner (with JavaScript): drawing tools, the airspace status box,
 * the current drawing, the completed areas, the live quote and 'Generate Quote', beside
 * the satellite map. The live quote runs the shared pricing engine in the browser with
 * the hubs and settings from the loader and the server's own airspace check,
 * so it shows what Generate Quote will store.
 */
import { useFetcher } from '@remix-run/react'
import { useToast } from '#app/components/layout/toaster.tsx'
import { Spinner } from '#app/components/ui/status-button.tsx'
import { surveyAreaProblem, type LatLng } from '#app/domain/geometry/areas.ts'
import { applyRepeatDiscount, computeQuote, type PricingHub } from '#app/domain/pricing/quote.ts'
import type { PricingSettings } from '#app/domain/pricing/settings.ts'
import type { SurveySettings } from '#app/domain/survey/project-plan.ts'
import type L from 'leaflet'
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'

import { CompletedAreas, DrawingTools } from './drawing-tools.tsx'
import {
  captureMap,
  fitToAreas,
  PlannerMap,
  PROJECT_ZOOM,
  SOUTH_AFRICA_CENTRE,
  SOUTH_AFRICA_ZOOM,
} from './planner-map.client.tsx'
import { AirspaceBox, LiveQuote, Panel } from './planner-panels.tsx'
import { SurveyGridFigures } from './survey-panel.tsx'
import { useAirspaceCheck, useAirspaceZones } from './use-airspace.ts'
import { usePolygonDrawing } from './use-polygon-drawing.ts'
import { useSurveyGrid } from './use-survey-grid.ts'

const NOTHING_DRAWN_MESSAGE = 'Please draw at least one area before saving.'
const SAVE_FAILED_MESSAGE = 'Error saving flight plan. Please try again.'

export function PlannerWorkspace({
  project,
  hubs,
  settings,
  initialAreas,
  tileUrl,
  streetTileUrl,
  serverError,
  noJsForm,
  surveySettings,
  visible = true,
}: {
  project: { id: number; latitude: number | null; longitude: number | null; isRepeat?: boolean }
  hubs: Array<PricingHub & { address?: string }>
  settings: PricingSettings
  initialAreas: LatLng[][]
  tileUrl: string
  streetTileUrl: string
  serverError: string | null
  noJsForm: ReactNode
  surveySettings: SurveySettings
  visible?: boolean
}) {
  const [notice, setNotice] = useState<string | null>(null)
  const { draw, areas, setAreas, setPoints, setDrawing, completeArea, undoPoint, clear } = usePolygonDrawing(
    initialAreas,
    setNotice,
  )
  const { drawing, points: current } = draw
  const [showZones, setShowZones] = useState(true)
  const zones = useAirspaceZones()
  const [capturing, setCapturing] = useState(false)
  const mapRef = useRef<L.Map | null>(null)
  const fetcher = useFetcher<{ error?: string; toast?: { title: string; description: string } }>()
  const showToast = useToast()
  const saving = capturing || fetcher.state !== 'idle'

  const onMap = useCallback(
    (map: L.Map | null) => {
      mapRef.current = map
      if (map && initialAreas.length) fitToAreas(map, initialAreas)
    },
    // The saved areas only matter when the map first appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  )

  // A map laid out while hidden has the wrong size; measure again when it shows.
  useEffect(() => {
    if (visible) mapRef.current?.invalidateSize()
  }, [visible])

  // What gets quoted: the completed areas, plus the one in progress once it has 3 points.
  const quoteAreas = useMemo(
    () => [...areas, ...(current.length >= 3 ? [current] : [])].map((coordinates) => ({ coordinates })),
    [areas, current],
  )
  const quoteKey = JSON.stringify(quoteAreas)
  const { airspace, check } = useAirspaceCheck(quoteAreas, quoteKey)
  const zoneNames = useMemo(() => check?.zones?.map((z) => z.zoneName) ?? [], [check])
  const grid = useSurveyGrid(quoteAreas, surveySettings, zoneNames)
  const gridLines = useMemo(() => grid.plan?.lines.map((l) => l.coordinates) ?? [], [grid])

  const live = useMemo(() => {
    const figures = computeQuote({
      areas: quoteAreas,
      hubs,
      settings,
      aviation: check
        ? { aviationFee: check.aviationFee, zoneName: check.zoneName, zoneColor: check.color }
        : undefined,
    })
    return project.isRepeat
      ? applyRepeatDiscount(figures, settings.repeatDiscountPercent, settings.vatRate)
      : figures
  }, [quoteAreas, hubs, settings, check, project.isRepeat])

  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.error) {
      // Creating / pricing the project failed: the product's 'Error' toast; the reason shows below.
      showToast(
        fetcher.data.toast
          ? { ...fetcher.data.toast, type: 'error' }
          : { title: 'Error', description: SAVE_FAILED_MESSAGE, type: 'error' },
      )
    }
  }, [fetcher.state, fetcher.data, showToast])

  async function generateQuote() {
    const toSave = [...areas, ...(current.length >= 3 ? [current] : [])]
    if (!toSave.length) {
      // The page's own toast: no browser alert, and no box that moves the map mid-drawing.
      showToast({ title: 'Nothing to quote yet', description: NOTHING_DRAWN_MESSAGE, type: 'error' })
      return
    }
    if (current.length >= 3) {
      const problem = surveyAreaProblem(current)
      if (problem) {
        setNotice(problem)
        return
      }
      setAreas(toSave)
      setPoints([])
    }
    setDrawing(false)
    setCapturing(true)
    let screenshot: string | null = null
    try {
      if (mapRef.current) {
        fitToAreas(mapRef.current, toSave)
        // Let the fitted view's tiles start loading before the picture is taken.
        await new Promise((r) => setTimeout(r, 600))
        screenshot = await captureMap(mapRef.current)
      }
    } finally {
      setCapturing(false)
    }
    const form = new FormData()
    form.set('intent', 'generate-quote')
    form.set('areas', JSON.stringify(toSave.map((coordinates) => ({ coordinates }))))
    if (screenshot) form.set('screenshot', screenshot)
    fetcher.submit(form, { method: 'post', action: `/flight-planner?projectId=${project.id}` })
  }

  const center: [number, number] =
    project.latitude !== null && project.longitude !== null
      ? [project.latitude, project.longitude]
      : SOUTH_AFRICA_CENTRE
  const zoom = project.latitude !== null ? PROJECT_ZOOM : SOUTH_AFRICA_ZOOM

  return (
    <div className="grid gap-4 lg:grid-cols-[380px_minmax(0,1fr)]">
      <div className="order-2 space-y-4 lg:order-1">
        <AirspaceBox state={airspace} />

        <DrawingTools
          drawing={drawing}
          onToggleDrawing={() => setDrawing((d) => !d)}
          canUndo={current.length > 0}
          onUndo={undoPoint}
          canComplete={current.length >= 3}
          onComplete={completeArea}
          canClear={areas.length > 0 || current.length > 0}
          onClear={clear}
          showZones={showZones}
          onToggleZones={() => setShowZones((s) => !s)}
        />

        <Panel title="Current drawing">
          <p className="text-sm text-ink-700" data-testid="current-points" data-count={current.length}>
            {current.length === 0
              ? drawing
                ? 'Click the map to place the corners of an area.'
                : 'Turn on Draw Area to start an area.'
              : `${current.length} point${current.length === 1 ? '' : 's'}${current.length < 3 ? ` — ${3 - current.length} more to complete` : ' — ready to complete'}`}
          </p>
          {notice ? (
            <p className="mt-2 rounded-md bg-red-50 px-2 py-1 text-xs text-red-800" role="alert">
              {notice}
            </p>
          ) : null}
        </Panel>

        <CompletedAreas areas={areas} onRemove={(i) => setAreas((list) => list.filter((_, j) => j !== i))} />

        <Panel title="Survey grid">
          <SurveyGridFigures grid={grid} settings={surveySettings} />
        </Panel>

        <Panel title="Live quote">
          <LiveQuote quote={live} pending={airspace.status === 'checking'} vatRate={settings.vatRate} />
        </Panel>

        {serverError || fetcher.data?.error ? (
          <p
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
            role="alert"
            data-testid="generate-quote-problem"
          >
            {fetcher.data?.error ?? serverError}
          </p>
        ) : null}

        <button
          type="button"
          onClick={generateQuote}
          disabled={saving}
          className="btn-primary w-full"
          data-testid="generate-quote"
        >
          {saving ? (
            <>
              <Spinner /> Generating Quote...
            </>
          ) : (
            'Generate Quote'
          )}
        </button>

        <details className="card p-4">
          <summary className="cursor-pointer text-sm font-medium text-ink-700">
            Paste coordinates or upload a KML / GeoJSON file instead
          </summary>
          <div className="mt-4">{noJsForm}</div>
        </details>
      </div>

      <div className="order-1 lg:order-2">
        <div
          className="relative h-[60vh] min-h-[360px] overflow-hidden rounded-2xl border border-ink-200 bg-ink-800 shadow-card lg:sticky lg:top-20 lg:h-[calc(100vh-7rem)]"
          data-testid="planner-map"
          data-drawing={drawing ? 'true' : 'false'}
        >
          <PlannerMap
            tileUrl={tileUrl}
            streetTileUrl={streetTileUrl}
            center={center}
            zoom={zoom}
            hubs={hubs}
            zones={zones}
            showZones={showZones}
            areas={areas}
            gridLines={gridLines}
            draw={draw}
            onMap={onMap}
          />
        </div>
      </div>
    </div>
  )
}
