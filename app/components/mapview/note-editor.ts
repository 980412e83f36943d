/**
 * A map note being placed or changed: the draft the map and the notes panel share, the tool
 * drawing its shape, and how the /api answers a failed change.
 */
import { DEFAULT_NOTE_COLOR, type AnnotationGeometry } from '#app/domain/annotations/annotation-schemas.ts'
import type { AnnotationBase, AnnotationKind, StockpileKind } from '#db/enums.ts'
import { useRef, useState } from 'react'

import type { NoteRow } from './map-notes.tsx'

export type Draft = {
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

export function draftOf(note: NoteRow): Draft {
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

export function emptyDraft(kind: AnnotationKind): Draft {
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

/** A note call's failure without a message of its own. */
export const NOTE_NOT_SAVED = 'The note could not be saved.'
