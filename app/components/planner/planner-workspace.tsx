/**
 * The interactive planner (with JavaScript): drawing tools, the airspace status box,
 * the current drawing, the completed areas, the live quote and 'Generate Quote', beside
 * the satellite map. The live quote runs the shared pricing engine in the browser with
 * the hubs and settings from the loader and the server's own airspace check (ADR 020),
 * so it shows what Generate Quote will store.
 */
import { useFetcher } from '@remix-run/react'
import type L from 'leaflet'
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { vatLabel } from '#app/domain/pricing/vat.ts'
import { useToast } from '#app/components/layout/toaster.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { formatHectares, formatKm, formatRand, formatSquareMetres } from '#app/domain/format/numbers.ts'
import { Spinner } from '#app/components/ui/status-button.tsx'
import { surveyAreaProblem, surveyAreaSqm, type LatLng } from '#app/domain/geometry/areas.ts'
import { NO_HUBS_MESSAGE, computeQuote, type PricingHub } from '#app/domain/pricing/quote.ts'
import type { PricingSettings } from '#app/domain/pricing/settings.ts'
import {
  PlannerMap,
  PROJECT_ZOOM,
  SOUTH_AFRICA_CENTRE,
  SOUTH_AFRICA_ZOOM,
  captureMap,
  fitToAreas,
  type DrawControls,
  type MapZone,
} from './planner-map.client.tsx'

export const NOTHING_DRAWN_ALERT = 'Please draw at least one area before saving.'
export const SAVE_FAILED_ALERT = 'Error saving flight plan. Please try again.'

interface AirspaceCheck {
  intersectsZone: boolean
  zoneName: string | null
  zoneType: string | null
  color: string | null
  aviationFee: number
  aviationFeeRands: number
  warnings: string[]
}

type AirspaceState =
  | { status: 'idle' }
  | { status: 'checking'; last: AirspaceCheck | null }
  | { status: 'done'; result: AirspaceCheck }
  | { status: 'error'; message: string }


export function PlannerWorkspace({
  project,
  hubs,
  settings,
  initialAreas,
  tileUrl,
  serverError,
  noJsForm,
  visible = true,
}: {
  project: { id: number; latitude: number | null; longitude: number | null }
  hubs: Array<PricingHub & { address?: string }>
  settings: PricingSettings
  initialAreas: LatLng[][]
  tileUrl: string
  serverError: string | null
  noJsForm: ReactNode
  visible?: boolean
}) {
  const [areas, setAreas] = useState<LatLng[][]>(initialAreas)
  const [current, setCurrent] = useState<LatLng[]>([])
  const [drawing, setDrawing] = useState(initialAreas.length === 0)
  const [showZones, setShowZones] = useState(true)
  const [zones, setZones] = useState<MapZone[]>([])
  const [airspace, setAirspace] = useState<AirspaceState>({ status: 'idle' })
  const [capturing, setCapturing] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const mapRef = useRef<L.Map | null>(null)
  // leaflet-draw's polygon handler, as driven by the buttons below (ADR 023).
  const drawControls = useRef<DrawControls | null>(null)
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

  // Zones for the overlay come from the API (large; cached by the browser), not the loader.
  useEffect(() => {
    let cancelled = false
    fetch('/api/airspace/zones')
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((data: MapZone[]) => !cancelled && setZones(data))
      .catch((error) => console.warn('[planner] airspace zones unavailable', error))
    return () => {
      cancelled = true
    }
  }, [])

  // What gets quoted: the completed areas, plus the one in progress once it has 3 points.
  const quoteAreas = useMemo(
    () => [...areas, ...(current.length >= 3 ? [current] : [])].map((coordinates) => ({ coordinates })),
    [areas, current],
  )
  const quoteKey = JSON.stringify(quoteAreas)

  // The server's airspace check (POST /api/airspace/check-flight-area), debounced.
  useEffect(() => {
    if (!quoteAreas.length) {
      setAirspace({ status: 'idle' })
      return
    }
    const controller = new AbortController()
    setAirspace((prev) => ({ status: 'checking', last: prev.status === 'done' ? prev.result : prev.status === 'checking' ? prev.last : null }))
    const timer = setTimeout(() => {
      fetch('/api/airspace/check-flight-area', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ flightPolygon: quoteAreas }),
        signal: controller.signal,
      })
        .then(async (r) => {
          const body = await r.json()
          if (!r.ok) throw new Error(body?.error ?? `Airspace check failed (${r.status})`)
          setAirspace({ status: 'done', result: body as AirspaceCheck })
        })
        .catch((error: Error) => {
          if (error.name === 'AbortError') return
          setAirspace({ status: 'error', message: error.message })
        })
    }, 300)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
    // quoteKey stands for quoteAreas' content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [quoteKey])

  const check = airspace.status === 'done' ? airspace.result : airspace.status === 'checking' ? airspace.last : null
  const live = useMemo(
    () =>
      computeQuote({
        areas: quoteAreas,
        hubs,
        settings,
        aviation: check ? { aviationFee: check.aviationFee, zoneName: check.zoneName, zoneColor: check.color } : undefined,
      }),
    [quoteAreas, hubs, settings, check],
  )

  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.error) {
      // Creating / pricing the project failed: the spec's 'Error' toast, then the save alert.
      if (fetcher.data.toast) showToast({ ...fetcher.data.toast, type: 'error' })
      window.alert(SAVE_FAILED_ALERT)
    }
  }, [fetcher.state, fetcher.data, showToast])

  // The handler's corners (every draw:drawvertex); the 5 m rule is applied before this.
  const syncPoints = useCallback((points: LatLng[]) => {
    setNotice(null)
    setCurrent(points)
  }, [])

  /** Takes a finished area into the list, or says why not (false: it stays in progress). */
  function acceptArea(points: LatLng[]) {
    const problem = surveyAreaProblem(points)
    if (problem) {
      setNotice(problem)
      return false
    }
    setAreas((list) => [...list, points])
    setCurrent([])
    setNotice(null)
    return true
  }

  function completeArea() {
    if (current.length < 3) return
    // Checked first so a refused area never leaves leaflet-draw's hands.
    const problem = surveyAreaProblem(current)
    if (problem) {
      setNotice(problem)
      return
    }
    // Drawing: completeShape() → draw:created → acceptArea. Paused: straight from state.
    if (drawing && drawControls.current) drawControls.current.complete()
    else acceptArea(current)
  }

  function undoPoint() {
    if (drawing && drawControls.current) drawControls.current.undoPoint()
    else setCurrent((points) => points.slice(0, -1))
  }

  async function generateQuote() {
    const toSave = [...areas, ...(current.length >= 3 ? [current] : [])]
    if (!toSave.length) {
      window.alert(NOTHING_DRAWN_ALERT)
      return
    }
    if (current.length >= 3) {
      const problem = surveyAreaProblem(current)
      if (problem) {
        setNotice(problem)
        return
      }
      setAreas(toSave)
      setCurrent([])
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

  const pauseDrawing = useCallback(() => setDrawing(false), [])

  const center: [number, number] =
    project.latitude !== null && project.longitude !== null ? [project.latitude, project.longitude] : SOUTH_AFRICA_CENTRE
  const zoom = project.latitude !== null ? PROJECT_ZOOM : SOUTH_AFRICA_ZOOM

  return (
    <div className="grid gap-4 lg:grid-cols-[380px_minmax(0,1fr)]">
      <div className="order-2 space-y-4 lg:order-1">
        <AirspaceBox state={airspace} />

        <Panel title="Drawing tools">
          <div className="grid grid-cols-2 gap-2">
            <button
              type="button"
              onClick={() => setDrawing((d) => !d)}
              aria-pressed={drawing}
              className={cn('col-span-2', drawing ? 'btn-dark' : 'btn-secondary')}
              data-testid="draw-toggle"
            >
              {drawing ? 'Draw Area: on — click the map' : 'Draw Area'}
            </button>
            <button type="button" className="btn-secondary btn-sm" onClick={undoPoint} disabled={!current.length}>
              Undo Point
            </button>
            <button type="button" className="btn-primary btn-sm" onClick={completeArea} disabled={current.length < 3}>
              Complete
            </button>
            <button
              type="button"
              className="btn-ghost btn-sm"
              onClick={() => {
                drawControls.current?.reset()
                setAreas([])
                setCurrent([])
                setNotice(null)
              }}
              disabled={!areas.length && !current.length}
            >
              Clear All
            </button>
            <button type="button" className="btn-ghost btn-sm" onClick={() => setShowZones((s) => !s)} aria-pressed={showZones}>
              {showZones ? 'Hide Airspace Zones' : 'Show Airspace Zones'}
            </button>
          </div>
        </Panel>

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

        <Panel title={`Completed areas (${areas.length})`}>
          {areas.length === 0 ? (
            <p className="text-sm text-ink-500">None yet.</p>
          ) : (
            <ul className="space-y-1.5" data-testid="completed-areas">
              {areas.map((area, i) => {
                const sqm = surveyAreaSqm({ coordinates: area })
                return (
                  <li
                    key={i}
                    className="flex items-center justify-between gap-2 rounded-lg bg-ink-50 px-3 py-2 text-sm"
                    data-coordinates={JSON.stringify(area)}
                  >
                    <span>
                      <strong>Area {i + 1}</strong> · {formatSquareMetres(sqm)} ({formatHectares(sqm)}) · {area.length} points
                    </span>
                    <button
                      type="button"
                      onClick={() => setAreas((list) => list.filter((_, j) => j !== i))}
                      className="rounded px-2 py-1 text-xs font-semibold text-red-700 hover:bg-red-50"
                      aria-label={`Remove area ${i + 1}`}
                    >
                      Remove
                    </button>
                  </li>
                )
              })}
            </ul>
          )}
        </Panel>

        <Panel title="Live quote">
          <LiveQuote quote={live} checking={airspace.status === 'checking'} vatRate={settings.vatRate} />
        </Panel>

        {serverError || fetcher.data?.error ? (
          <p className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" role="alert">
            {fetcher.data?.error ?? serverError}
          </p>
        ) : null}

        <button type="button" onClick={generateQuote} disabled={saving} className="btn-primary w-full" data-testid="generate-quote">
          {saving ? (
            <>
              <Spinner /> Generating Quote...
            </>
          ) : (
            'Generate Quote'
          )}
        </button>

        <details className="card p-4">
          <summary className="cursor-pointer text-sm font-medium text-ink-700">Paste coordinates or upload a KML / GeoJSON file instead</summary>
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
            center={center}
            zoom={zoom}
            hubs={hubs}
            zones={zones}
            showZones={showZones}
            areas={areas}
            current={current}
            drawing={drawing}
            drawControls={drawControls}
            onPointsChange={syncPoints}
            onAreaDrawn={acceptArea}
            onDrawCancel={pauseDrawing}
            onMap={onMap}
          />
        </div>
      </div>
    </div>
  )
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card p-4">
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-500">{title}</h3>
      {children}
    </section>
  )
}

function AirspaceBox({ state }: { state: AirspaceState }) {
  const result = state.status === 'done' ? state.result : null
  const tone =
    state.status === 'error'
      ? 'border-red-200 bg-red-50 text-red-900'
      : result?.intersectsZone
        ? result.aviationFee > 0
          ? 'border-amber-300 bg-amber-50 text-amber-950'
          : 'border-sky-200 bg-sky-50 text-sky-900'
        : result
          ? 'border-emerald-200 bg-emerald-50 text-emerald-900'
          : 'border-ink-100 bg-white text-ink-700'
  return (
    <section className={cn('rounded-2xl border p-4 shadow-card', tone)} aria-live="polite" data-testid="airspace-status" data-state={state.status}>
      <h3 className="text-xs font-semibold uppercase tracking-wide opacity-80">Airspace status</h3>
      {state.status === 'idle' ? (
        <p className="mt-1 text-sm">Draw an area to check it against controlled and restricted airspace.</p>
      ) : state.status === 'checking' ? (
        <p className="mt-1 flex items-center gap-2 text-sm">
          <Spinner /> Checking airspace…
        </p>
      ) : state.status === 'error' ? (
        <p className="mt-1 text-sm">{state.message}</p>
      ) : result && result.intersectsZone ? (
        <div className="mt-1 text-sm">
          <p className="font-semibold">
            {result.zoneName} ({result.zoneType})
          </p>
          <p>{result.aviationFee > 0 ? `Aviation fee ${formatRand(result.aviationFee)}` : 'No aviation fee for this zone'}</p>
        </div>
      ) : (
        <p className="mt-1 text-sm font-semibold">Clear airspace — no aviation fee</p>
      )}
      {result?.warnings.length ? (
        <ul className="mt-2 space-y-1 text-xs font-medium">
          {result.warnings.map((w) => (
            <li key={w}>⚠ {w}</li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

function LiveQuote({ quote, checking, vatRate }: { quote: ReturnType<typeof computeQuote>; checking: boolean; vatRate: number }) {
  if (quote.areaSqm <= 0) return <p className="text-sm text-ink-500">Draw an area to see the price.</p>
  if (quote.noHubs) return <p className="text-sm font-medium text-red-700">{NO_HUBS_MESSAGE}</p>
  const rows: Array<[string, number]> = [
    ['Survey (area-adjusted)', quote.adjustedPrice],
    ['Travel fee', quote.travelFee],
    ['Aviation fee', quote.aviationFee],
    ['Subtotal', quote.subtotal],
    [vatLabel(vatRate), quote.vatAmount],
  ]
  return (
    <div data-testid="live-quote" data-total-cents={quote.totalInCents} data-settled={checking ? 'false' : 'true'}>
      <p className="text-sm text-ink-600">
        {formatSquareMetres(quote.areaSqm)} · {formatHectares(quote.areaSqm)}
        {quote.nearestHub ? ` · ${formatKm(quote.distanceFromHub)} from ${quote.nearestHub.name}` : ''}
      </p>
      <dl className="mt-2 space-y-1 text-sm">
        {rows.map(([label, cents]) => (
          <div key={label} className="flex justify-between">
            <dt className="text-ink-600">{label}</dt>
            <dd className="tabular-nums text-ink-900">{formatRand(cents)}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-2 flex items-baseline justify-between border-t border-ink-100 pt-2">
        <span className="text-sm font-semibold text-ink-900">Total incl. VAT</span>
        <span className="text-xl font-bold tabular-nums text-ink-950" data-testid="live-quote-total">
          {formatRand(quote.totalInCents)}
        </span>
      </div>
    </div>
  )
}
