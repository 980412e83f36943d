/** A note's popup on the map: what it says and who wrote it, and Edit and Delete for those who may. */
import { useRevalidator } from '@remix-run/react'
import { STOCKPILE_LABELS } from '#app/domain/annotations/annotation-schemas.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { useState } from 'react'

import { readApiError } from './map-kit/read-error.ts'
import { KIND_LABELS, NoteMeasurement, type NoteRow } from './map-notes.tsx'
import { NOTE_NOT_SAVED } from './note-editor.ts'

export function NotePopup({
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
    if (!response.ok) return setError(await readApiError(response, NOTE_NOT_SAVED))
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
