/**
 * Notes on the interactive map (browser only): every note drawn in its colour with its
 * popup (`note-popup.tsx`); for project members, a point placed by a click, a line or a
 * polygon drawn (the map kit's drawing), and a saved note's shape moved while it is edited
 * (`notes-panel.tsx` holds the text). A share link's map shows the notes and never edits.
 */
import { DEFAULT_NOTE_COLOR, type AnnotationGeometry } from '#app/domain/annotations/annotation-schemas.ts'
import L from 'leaflet'
import { useEffect, useRef } from 'react'
import { CircleMarker, Polygon, Polyline, Popup, useMap } from 'react-leaflet'

import { drawnShape, drawShape, pickPoint } from './map-kit/draw-shape.client.ts'
import type { NoteRow } from './map-notes.tsx'
import { draftOf, emptyDraft, type NoteEditor } from './note-editor.ts'
import { NotePopup } from './note-popup.tsx'

const toLatLng = ([lng, lat]: number[]) => [lat!, lng!] as [number, number]
const toPosition = (p: L.LatLng) => [p.lng, p.lat] as [number, number]

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
    if (drawing === 'point')
      return pickPoint(map, (latlng) =>
        take(
          { type: 'Point', coordinates: toPosition(latlng) },
          L.circleMarker(latlng, { radius: 7, color: '#fff', weight: 2, fillOpacity: 1 }),
        ),
      )
    const onCreated = (event: L.LeafletEvent) => {
      const { layer, latlngs } = drawnShape(event)
      const positions = latlngs.map(toPosition)
      take(
        drawing === 'line'
          ? { type: 'LineString', coordinates: positions }
          : { type: 'Polygon', coordinates: [[...positions, positions[0]!]] },
        layer,
      )
    }
    map.on(L.Draw.Event.CREATED, onCreated)
    const colour = latest.current.draft?.color ?? DEFAULT_NOTE_COLOR
    const stop = drawShape(map, drawing, { colour, fill: colour, repeat: false, finishRef })
    return () => {
      stop()
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
