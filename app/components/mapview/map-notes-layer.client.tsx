/**
 * Notes on the interactive map (browser only): every note drawn in its colour with its
 * title, note, author, date and measurement in a popup; for project members, a panel that
 * places a point (a click), a line or a polygon (leaflet-draw) with a title, a note and a
 * colour, and edits (shape and text) or deletes the notes they may change, through the same
 * /api calls as any client. A share link's map shows the notes and never edits. After a
 * change the page's data is loaded again, so the server-rendered list and the map agree.
 */
import { useRevalidator } from '@remix-run/react'
import {
  acceptEveryClick,
  followPointer,
  withoutMapFocus,
} from '#app/components/maps/leaflet-draw-fixes.client.ts'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import {
  BASE_LABELS,
  DEFAULT_NOTE_COLOR,
  NOTE_COLORS,
  STOCKPILE_LABELS,
  type AnnotationGeometry,
} from '#app/domain/annotations/annotation-schemas.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import type { AnnotationBase, AnnotationKind, StockpileKind } from '#db/enums.ts'
import L from 'leaflet'
import { useEffect, useRef, useState } from 'react'
import { CircleMarker, Polygon, Polyline, Popup, useMap } from 'react-leaflet'

import { KIND_LABELS, NoteMeasurement, type NoteRow } from './map-notes.tsx'

const vertexIcon = L.divIcon({
  className: '',
  html: '<span class="block h-3 w-3 rounded-full border-2 border-white bg-ink-800 shadow"></span>',
  iconSize: [12, 12],
  iconAnchor: [6, 6],
})

type Draft = {
  /** The note being changed; null for a new one. */
  id: number | null
  kind: AnnotationKind
  geometry: AnnotationGeometry | null
  title: string
  note: string
  color: string
  stockpileKind: StockpileKind | ''
  base: AnnotationBase
  baseElevationM: string
}

/** What the map and the panel share: the draft, the tool drawing it, and how to read an edited shape. */
export type NoteEditor = {
  draft: Draft | null
  setDraft: (draft: Draft | null) => void
  /** The drawing tool on: the map takes the note's shape. */
  drawing: AnnotationKind | null
  setDrawing: (kind: AnnotationKind | null) => void
  finishRef: React.MutableRefObject<(() => void) | null>
  /** The shape of the note being edited, as moved on the map. */
  editedShapeRef: React.MutableRefObject<(() => AnnotationGeometry | null) | null>
  /** Grows when an edit is cancelled: the notes are drawn afresh, a moved shape back where it was. */
  epoch: number
  cancel: () => void
}

export function useNoteEditor(): NoteEditor {
  const [draft, setDraft] = useState<Draft | null>(null)
  const [drawing, setDrawing] = useState<AnnotationKind | null>(null)
  const finishRef = useRef<(() => void) | null>(null)
  const editedShapeRef = useRef<(() => AnnotationGeometry | null) | null>(null)
  const [epoch, setEpoch] = useState(0)
  const cancel = () => {
    setDrawing(null)
    setDraft(null)
    setEpoch((n) => n + 1)
  }
  return { draft, setDraft, drawing, setDrawing, finishRef, editedShapeRef, epoch, cancel }
}

const toLatLng = ([lng, lat]: number[]) => [lat!, lng!] as [number, number]
const toPosition = (p: L.LatLng) => [p.lng, p.lat] as [number, number]

function draftOf(note: NoteRow): Draft {
  return {
    id: note.id,
    kind: note.kind,
    geometry: note.geometry,
    title: note.title,
    note: note.note,
    color: note.color,
    stockpileKind: note.stockpileKind ?? '',
    base: note.base ?? 'edge-mean',
    baseElevationM: note.baseElevationM === null ? '' : String(note.baseElevationM),
  }
}

function NotePopup({
  note,
  projectId,
  onEdit,
}: {
  note: NoteRow
  projectId: number | null
  onEdit: (note: NoteRow) => void
}) {
  const revalidator = useRevalidator()
  const [confirming, setConfirming] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const editable = projectId !== null && note.canEdit
  async function remove() {
    setError(null)
    const response = await fetch(`/api/projects/${projectId}/annotations/${note.id}`, { method: 'DELETE' })
    if (!response.ok) return setError(await errorOf(response))
    revalidator.revalidate()
  }
  return (
    <div className="min-w-[12rem] space-y-1 text-sm" data-testid="note-popup">
      <p className="font-semibold text-ink-950">{note.title}</p>
      <p className="text-xs text-ink-500">
        {KIND_LABELS[note.kind]}
        {note.stockpileKind ? ` · ${STOCKPILE_LABELS[note.stockpileKind]}` : ''}
      </p>
      {note.note ? <p className="whitespace-pre-line text-ink-800">{note.note}</p> : null}
      <NoteMeasurement note={note} />
      <p className="text-xs text-ink-500">
        {note.authorName} · {formatDate(note.createdAt)}
      </p>
      {editable ? (
        <div className="flex flex-wrap gap-2 pt-1">
          {confirming ? (
            <>
              <button type="button" className="btn-danger btn-sm" onClick={() => void remove()}>
                Delete this note
              </button>
              <button type="button" className="btn-secondary btn-sm" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <>
              <button type="button" className="btn-secondary btn-sm" onClick={() => onEdit(note)}>
                Edit
              </button>
              <button type="button" className="btn-danger-quiet btn-sm" onClick={() => setConfirming(true)}>
                Delete
              </button>
            </>
          )}
        </div>
      ) : null}
      {error ? <p className="text-red-700">{error}</p> : null}
    </div>
  )
}

type EditableLayer = L.Layer & { editing?: { enable(): void; disable(): void } }

/** The notes on the map, and the drawing or editing of one. */
export function NotesOnMap({
  notes,
  projectId,
  editor,
}: {
  notes: NoteRow[]
  /** Signed-in members change notes; null on a share link. */
  projectId: number | null
  editor: NoteEditor
}) {
  const map = useMap()
  const layers = useRef(new Map<number, EditableLayer>())
  const draftLayer = useRef<L.FeatureGroup>(L.featureGroup())
  const { draft, setDraft, drawing, setDrawing, finishRef, editedShapeRef } = editor
  const latest = useRef({ draft, setDraft, setDrawing })
  latest.current = { draft, setDraft, setDrawing }
  const editingId = draft?.id ?? null

  // A new note's shape: a click for a point, leaflet-draw for a line or a polygon.
  useEffect(() => {
    if (!drawing) return
    const group = draftLayer.current.addTo(map)
    const take = (geometry: AnnotationGeometry, layer: L.Layer) => {
      group.clearLayers()
      group.addLayer(layer)
      const current = latest.current.draft
      latest.current.setDraft({ ...(current ?? emptyDraft(drawing)), kind: drawing, geometry })
      latest.current.setDrawing(null)
    }
    if (drawing === 'point') {
      map.getContainer().style.cursor = 'crosshair'
      const onClick = (event: L.LeafletMouseEvent) =>
        take(
          { type: 'Point', coordinates: toPosition(event.latlng) },
          L.circleMarker(event.latlng, { radius: 7, color: '#fff', weight: 2, fillOpacity: 1 }),
        )
      map.on('click', onClick)
      return () => {
        map.off('click', onClick)
        map.getContainer().style.cursor = ''
      }
    }
    const colour = latest.current.draft?.color ?? DEFAULT_NOTE_COLOR
    const common = {
      icon: vertexIcon,
      touchIcon: vertexIcon,
      showLength: false,
      guidelineDistance: 12,
      shapeOptions: { color: colour, weight: 3, opacity: 1, fillColor: colour, fillOpacity: 0.2 },
    }
    const handler =
      drawing === 'line'
        ? new L.Draw.Polyline(map as L.DrawMap, common)
        : new L.Draw.Polygon(map as L.DrawMap, { ...common, showArea: false, allowIntersection: false })
    const onCreated = (event: L.LeafletEvent) => {
      const layer = (event as L.DrawEvents.Created).layer as L.Polyline
      const positions = (layer.getLatLngs().flat(2) as L.LatLng[]).map(toPosition)
      take(
        drawing === 'line'
          ? { type: 'LineString', coordinates: positions }
          : { type: 'Polygon', coordinates: [[...positions, positions[0]!]] },
        layer,
      )
    }
    map.on(L.Draw.Event.CREATED, onCreated)
    acceptEveryClick(handler)
    withoutMapFocus(map, () => handler.enable())
    const stopFollowing = followPointer(map, handler)
    finishRef.current = () => handler.completeShape()
    return () => {
      finishRef.current = null
      stopFollowing()
      handler.disable()
      map.off(L.Draw.Event.CREATED, onCreated)
    }
  }, [map, drawing, finishRef])

  // The draft's shape goes when the draft does.
  useEffect(() => {
    if (!draft || draft.id !== null) draftLayer.current.clearLayers()
  }, [draft])

  // Editing a saved note's shape: its corners (or the point) can be dragged.
  useEffect(() => {
    if (editingId === null) return
    const layer = layers.current.get(editingId)
    if (!layer) return
    map.closePopup()
    layer.editing?.enable()
    editedShapeRef.current = () => {
      if (layer instanceof L.Polygon) {
        const ring = (layer.getLatLngs()[0] as L.LatLng[]).map(toPosition)
        return { type: 'Polygon', coordinates: [[...ring, ring[0]!]] }
      }
      if (layer instanceof L.Polyline)
        return { type: 'LineString', coordinates: (layer.getLatLngs() as L.LatLng[]).map(toPosition) }
      if (layer instanceof L.CircleMarker)
        return { type: 'Point', coordinates: toPosition(layer.getLatLng()) }
      return null
    }
    return () => {
      layer.editing?.disable()
      editedShapeRef.current = null
    }
  }, [map, editingId, editedShapeRef])

  return (
    <>
      {notes.map((note) => {
        const style = { color: note.color, fillColor: note.color, weight: 3, fillOpacity: 0.2 }
        const key = `${note.id}-${note.updatedAt}-${editor.epoch}`
        const ref = (layer: EditableLayer | null) => {
          if (layer) layers.current.set(note.id, layer)
        }
        const popup = (
          <Popup>
            <NotePopup
              note={note}
              projectId={projectId}
              onEdit={(n) => {
                setDrawing(null)
                setDraft(draftOf(n))
              }}
            />
          </Popup>
        )
        const className = `note-shape note-shape-${note.id}`
        const g = note.geometry
        if (g.type === 'Point')
          return (
            <CircleMarker
              key={key}
              ref={ref}
              center={toLatLng(g.coordinates)}
              radius={7}
              // className is an option Leaflet reads only when it makes the path.
              className={className}
              pathOptions={{ ...style, color: '#fff', fillColor: note.color, fillOpacity: 1 }}
            >
              {popup}
            </CircleMarker>
          )
        if (g.type === 'LineString')
          return (
            <Polyline
              key={key}
              ref={ref}
              positions={g.coordinates.map(toLatLng)}
              className={className}
              pathOptions={style}
            >
              {popup}
            </Polyline>
          )
        return (
          <Polygon
            key={key}
            ref={ref}
            positions={g.coordinates[0]!.slice(0, -1).map(toLatLng)}
            className={className}
            pathOptions={style}
          >
            {popup}
          </Polygon>
        )
      })}
    </>
  )
}

function emptyDraft(kind: AnnotationKind): Draft {
  return {
    id: null,
    kind,
    geometry: null,
    title: '',
    note: '',
    color: DEFAULT_NOTE_COLOR,
    stockpileKind: '',
    base: 'edge-mean',
    baseElevationM: '',
  }
}

async function errorOf(response: Response) {
  try {
    const body = (await response.json()) as { error?: string; fieldErrors?: Record<string, string[]> }
    const first = body.fieldErrors ? Object.values(body.fieldErrors)[0]?.[0] : undefined
    return first ?? body.error ?? 'The note could not be saved.'
  } catch {
    return 'The note could not be saved.'
  }
}

const HINTS: Record<AnnotationKind, string> = {
  point: 'Click the map where the note goes.',
  line: 'Click along the line, then Finish.',
  polygon: 'Click the corners, then click the first corner or Finish.',
}

/** The side panel: add a note by drawing it, or change the one chosen on the map. */
export function NotesPanel({ projectId, editor }: { projectId: number; editor: NoteEditor }) {
  const { draft, setDraft, drawing, setDrawing, finishRef, editedShapeRef } = editor
  const revalidator = useRevalidator()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const change = (fields: Partial<Draft>) => draft && setDraft({ ...draft, ...fields })
  const stop = () => {
    setError(null)
    editor.cancel()
  }

  async function save(event: React.FormEvent) {
    event.preventDefault()
    if (!draft) return
    const geometry = (draft.id !== null ? editedShapeRef.current?.() : null) ?? draft.geometry
    const polygon = draft.kind === 'polygon'
    const typed = draft.base === 'typed' && polygon
    setBusy(true)
    setError(null)
    try {
      const response = await fetch(
        draft.id === null
          ? `/api/projects/${projectId}/annotations`
          : `/api/projects/${projectId}/annotations/${draft.id}`,
        {
          method: draft.id === null ? 'POST' : 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            kind: draft.kind,
            geometry,
            title: draft.title,
            note: draft.note,
            color: draft.color,
            stockpileKind: polygon && draft.stockpileKind ? draft.stockpileKind : null,
            base: polygon ? draft.base : null,
            baseElevationM: typed && draft.baseElevationM !== '' ? Number(draft.baseElevationM) : null,
          }),
        },
      )
      if (!response.ok) return setError(await errorOf(response))
      setDraft(null)
      revalidator.revalidate()
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="map-notes-heading" className="card p-4" data-testid="map-notes-panel">
      <h2 id="map-notes-heading" className="mb-3 text-sm font-semibold uppercase tracking-wide text-ink-500">
        Notes
      </h2>
      {!draft || draft.id === null ? (
        <div className="grid grid-cols-3 gap-1.5" role="group" aria-label="Add a note">
          {(['point', 'line', 'polygon'] as const).map((kind) => (
            <button
              key={kind}
              type="button"
              aria-pressed={drawing === kind}
              onClick={() => {
                setError(null)
                setDraft(null)
                setDrawing(drawing === kind ? null : kind)
              }}
              className={
                drawing === kind
                  ? 'btn-primary btn-sm justify-center px-1'
                  : 'btn-secondary btn-sm justify-center px-1'
              }
            >
              {`Add ${KIND_LABELS[kind].toLowerCase()}`}
            </button>
          ))}
        </div>
      ) : null}
      {drawing ? (
        <div className="mt-3 flex items-center justify-between gap-2">
          <p className="text-xs text-ink-600">{HINTS[drawing]}</p>
          {drawing !== 'point' ? (
            <button
              type="button"
              className="btn-secondary btn-sm shrink-0"
              onClick={() => finishRef.current?.()}
            >
              Finish
            </button>
          ) : null}
        </div>
      ) : null}
      {draft?.geometry ? (
        <form className="mt-3 space-y-3 text-sm" onSubmit={(e) => void save(e)} aria-label="Note on the map">
          <p className="text-xs text-ink-600">
            {draft.id === null
              ? `New ${KIND_LABELS[draft.kind].toLowerCase()} on the map.`
              : `Editing: drag its ${draft.kind === 'point' ? 'point' : 'corners'} on the map to move it.`}
          </p>
          <label className="block font-medium text-ink-900">
            Title
            <input
              className="input mt-1 w-full"
              required
              maxLength={200}
              value={draft.title}
              onChange={(e) => change({ title: e.target.value })}
            />
          </label>
          <label className="block font-medium text-ink-900">
            Note
            <textarea
              className="input mt-1 w-full"
              rows={2}
              maxLength={2000}
              value={draft.note}
              onChange={(e) => change({ note: e.target.value })}
            />
          </label>
          <fieldset>
            <legend className="font-medium text-ink-900">Colour</legend>
            <div className="mt-1 flex flex-wrap gap-2">
              {NOTE_COLORS.map((c) => (
                <label key={c} className="flex items-center gap-1">
                  <input
                    type="radio"
                    name="map-note-color"
                    value={c}
                    checked={draft.color === c}
                    onChange={() => change({ color: c })}
                  />
                  <span aria-hidden className="inline-block h-4 w-4 rounded-full" style={{ background: c }} />
                  <span className="sr-only">{c}</span>
                </label>
              ))}
            </div>
          </fieldset>
          {draft.kind === 'polygon' ? (
            <div className="grid grid-cols-2 gap-2">
              <label className="font-medium text-ink-900">
                Polygon is a
                <select
                  className="input mt-1 w-full"
                  value={draft.stockpileKind}
                  onChange={(e) => change({ stockpileKind: e.target.value as Draft['stockpileKind'] })}
                >
                  <option value="">Plain note</option>
                  <option value="stockpile">Stockpile</option>
                  <option value="pit">Pit</option>
                </select>
              </label>
              <label className="font-medium text-ink-900">
                Volume base
                <select
                  className="input mt-1 w-full"
                  value={draft.base}
                  onChange={(e) => change({ base: e.target.value as AnnotationBase })}
                >
                  {Object.entries(BASE_LABELS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </label>
              {draft.base === 'typed' ? (
                <label className="col-span-2 font-medium text-ink-900">
                  Base height (m)
                  <input
                    type="number"
                    step="0.01"
                    className="input mt-1 w-32"
                    value={draft.baseElevationM}
                    onChange={(e) => change({ baseElevationM: e.target.value })}
                  />
                </label>
              ) : null}
            </div>
          ) : null}
          {error ? (
            <p role="alert" className="rounded-lg bg-red-50 p-2 text-red-800">
              {error}
            </p>
          ) : null}
          <div className="flex gap-2">
            <StatusButton type="submit" pending={busy} pendingLabel="Saving…" className="btn-sm">
              Save note
            </StatusButton>
            <button type="button" className="btn-secondary btn-sm" onClick={stop}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </section>
  )
}
