/**
 * The notes panel beside the Map view's map (project members): add a note by drawing it, or
 * change the one chosen on the map, through the same /api calls as any client; after a
 * change the page's data is loaded again, so the server-rendered list and the map agree.
 */
import { useRevalidator } from '@remix-run/react'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { NOTE_COLORS, NOTE_LIMITS } from '#app/domain/annotations/annotation-schemas.ts'
import type { AnnotationBase, AnnotationKind } from '#db/enums.ts'
import { useState } from 'react'

import { readApiError } from './map-kit/read-error.ts'
import { KIND_LABELS, PolygonVolumeSelects } from './map-notes.tsx'
import { NOTE_NOT_SAVED, type Draft, type NoteEditor } from './note-editor.ts'

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
      if (!response.ok) return setError(await readApiError(response, NOTE_NOT_SAVED))
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
              maxLength={NOTE_LIMITS.titleChars}
              value={draft.title}
              onChange={(e) => change({ title: e.target.value })}
            />
          </label>
          <label className="block font-medium text-ink-900">
            Note
            <textarea
              className="input mt-1 w-full"
              rows={2}
              maxLength={NOTE_LIMITS.noteChars}
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
              <PolygonVolumeSelects
                idPrefix="map-note"
                kind={{
                  value: draft.stockpileKind,
                  onChange: (e) => change({ stockpileKind: e.target.value as Draft['stockpileKind'] }),
                }}
                base={{
                  value: draft.base,
                  onChange: (e) => change({ base: e.target.value as AnnotationBase }),
                }}
              />
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
