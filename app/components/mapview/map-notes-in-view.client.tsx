/**
 * A member's Map view loads the notes' shapes by bounding box (GET …/annotations?bbox=…), a page
 * at a time, as the map moves: the page never carries every shape. Notes seen stay drawn until
 * the notes change (`version`, from the page's data), when the view is loaded afresh.
 */
import { useEffect, useState } from 'react'
import { useMap } from 'react-leaflet'

import { NotesOnMap } from './map-notes-layer.client.tsx'
import type { NoteRow } from './map-notes.tsx'
import type { NoteEditor } from './note-editor.ts'

/** Pages read for one view at most (a page is about 20 000 vertices). */
const MAX_PAGES = 10

type Page = { annotations: NoteRow[]; nextAfter: number | null }

function useNotesInView(projectId: number, version: string) {
  const map = useMap()
  const [notes, setNotes] = useState<Map<number, NoteRow>>(new Map())
  useEffect(() => {
    let controller: AbortController | null = null
    let seen = new Map<number, NoteRow>()
    setNotes(seen)
    const load = async () => {
      controller?.abort()
      const mine = (controller = new AbortController())
      const b = map.getBounds().pad(0.25)
      const clamp = (v: number, limit: number) => Math.min(limit, Math.max(-limit, v)).toFixed(6)
      const bbox = [
        clamp(b.getWest(), 180),
        clamp(b.getSouth(), 90),
        clamp(b.getEast(), 180),
        clamp(b.getNorth(), 90),
      ].join(',')
      let after = 0
      for (let page = 0; page < MAX_PAGES; page++) {
        const response = await fetch(`/api/projects/${projectId}/annotations?bbox=${bbox}&after=${after}`, {
          signal: mine.signal,
        })
        if (!response.ok) return
        const body = (await response.json()) as Page
        if (mine.signal.aborted) return
        seen = new Map(seen)
        for (const note of body.annotations) seen.set(note.id, note)
        setNotes(seen)
        if (body.nextAfter === null) return
        after = body.nextAfter
      }
    }
    const onMove = () => void load().catch(() => {})
    onMove()
    map.on('moveend', onMove)
    return () => {
      map.off('moveend', onMove)
      controller?.abort()
    }
  }, [map, projectId, version])
  return [...notes.values()]
}

/** The member's notes on the map, loaded by what the map shows. */
export function NotesInView({
  projectId,
  version,
  editor,
}: {
  projectId: number
  version: string
  editor: NoteEditor
}) {
  const notes = useNotesInView(projectId, version)
  return <NotesOnMap notes={notes} projectId={projectId} editor={editor} />
}
