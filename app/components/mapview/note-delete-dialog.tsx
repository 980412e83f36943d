/**
 * Deleting a note from the Map view's list asks first: the list's Delete is a link to
 * `?deleteNote={id}`, which the server renders as this dialog (so it works without JavaScript);
 * its button posts the delete. The map's popup keeps its own two-step button.
 */
import { useSearchParams } from '@remix-run/react'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'

/** The list page's own URL (`?notes=N` kept), where the dialog closes to and posts. */
function notesPageUrl(projectId: number, page: number) {
  return `/projects/${projectId}/map${page > 1 ? `?notes=${page}` : ''}`
}

/** The link that opens the dialog for one note, on the same page of the list. */
export function deleteNoteHref(page: number, noteId: number) {
  const query = new URLSearchParams(page > 1 ? { notes: String(page) } : {})
  query.set('deleteNote', String(noteId))
  return `?${query.toString()}#notes-heading`
}

export function NoteDeleteDialog({
  projectId,
  page,
  notes,
}: {
  projectId: number
  page: number
  notes: Array<{ id: number; title: string; canEdit?: boolean }>
}) {
  const [params] = useSearchParams()
  const note = notes.find((n) => n.canEdit && String(n.id) === params.get('deleteNote'))
  if (!note) return null
  const back = notesPageUrl(projectId, page)
  return (
    <ConfirmDialog
      title="Delete this note?"
      closeTo={`${back}#notes-heading`}
      action={back}
      intent="note-delete"
      fields={{ annotationId: note.id }}
      confirmLabel="Delete note"
      pendingLabel="Deleting…"
      testId="note-delete-dialog"
    >
      <p>
        Delete <strong className="break-words">{note.title}</strong>? It goes from the map, this list and the
        exports, for everyone on the project.
      </p>
    </ConfirmDialog>
  )
}
