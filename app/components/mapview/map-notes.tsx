/**
 * The Map view's notes, server-rendered (they work without JavaScript): each note with its
 * author, date and measurement, Delete (after a confirmation) on the notes this user may
 * change, a form that takes a note as typed coordinates, and the export links. A share link
 * shows the list only.
 */
import { Form, Link } from '@remix-run/react'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { ColorDot } from '#app/components/ui/color-dot.tsx'
import { CardSection } from '#app/components/ui/section-header.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import {
  BASE_LABELS,
  DEFAULT_NOTE_COLOR,
  NOTE_COLORS,
  NOTE_EXPORT_FORMAT_LABELS,
  NOTE_EXPORT_FORMATS,
  NOTE_LIMITS,
  STOCKPILE_LABELS,
  type AnnotationView,
} from '#app/domain/annotations/annotation-schemas.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import {
  formatCubicMetres,
  formatMetres,
  formatNumber,
  formatSquareMetres,
  plural,
} from '#app/lib/format/numbers.ts'
import type { SelectHTMLAttributes } from 'react'

import { deleteNoteHref, NoteDeleteDialog } from './note-delete-dialog.tsx'
import { CoordinatesField, ToolForm } from './terrain-form-parts.tsx'

export type NoteRow = Omit<AnnotationView, 'authorId'> & { canEdit?: boolean }
/** A note in the server-rendered list: no shape (the map loads shapes by bounding box). */
type ListedNote = Omit<NoteRow, 'geometry'>

export const KIND_LABELS = { point: 'Point', line: 'Line', polygon: 'Polygon' } as const

const NOTE_EXPORT_CRS_OPTIONS = [
  { value: 'wgs84', label: 'WGS 84' },
  { value: 'project', label: 'The survey’s own (e.g. UTM 34S, Lo19)' },
]
const STOCKPILE_KIND_OPTIONS = [
  { value: 'stockpile', label: 'Stockpile' },
  { value: 'pit', label: 'Pit' },
]
const BASE_OPTIONS = Object.entries(BASE_LABELS).map(([value, label]) => ({ value, label }))
const NOTE_SHAPE_OPTIONS = [
  { value: 'point', label: 'Point (one line)' },
  { value: 'line', label: 'Line (two or more lines)' },
  { value: 'polygon', label: 'Polygon (three or more corners)' },
]

/** A note's length, area and volume with its base, in words (the list and the map's popup). */
export function NoteMeasurement({ note }: { note: ListedNote }) {
  const m = note.measurement
  const parts: string[] = []
  if (note.kind === 'line' && m.lengthM !== undefined) parts.push(`Length ${formatMetres(m.lengthM)}`)
  if (m.areaM2 !== undefined) parts.push(`Area ${formatSquareMetres(m.areaM2)}`)
  if (m.cutM3 !== undefined) {
    parts.push(
      `Cut ${formatCubicMetres(m.cutM3)}`,
      `Fill ${formatCubicMetres(m.fillM3)}`,
      `Net ${formatCubicMetres(m.netM3)}`,
    )
    if (m.base) parts.push(`Base: ${BASE_LABELS[m.base]} (${formatMetres(m.baseElevationM ?? 0)})`)
  }
  return parts.length ? <p className="text-sm text-ink-700">{parts.join(' · ')}</p> : null
}

type SelectProps = SelectHTMLAttributes<HTMLSelectElement>

/** A polygon note's "Polygon is a" and "Volume base": the notes form's (by name) and the map panel's (controlled). */
export function PolygonVolumeSelects({
  idPrefix,
  kind,
  base,
}: {
  idPrefix: string
  kind: SelectProps
  base: SelectProps
}) {
  return (
    <>
      <SelectField
        labelProps={{ children: 'Polygon is a' }}
        selectProps={{ id: `${idPrefix}-stockpile-kind`, ...kind }}
        placeholder="Plain note"
        options={STOCKPILE_KIND_OPTIONS}
      />
      <SelectField
        labelProps={{ children: 'Volume base' }}
        selectProps={{ id: `${idPrefix}-volume-base`, ...base }}
        options={BASE_OPTIONS}
      />
    </>
  )
}

/** `listPage`: the Map view's page of the list, where Delete opens its confirmation; none on a share link. */
export function NoteList({ notes, listPage }: { notes: ListedNote[]; listPage?: number }) {
  if (!notes.length) return <p className="text-sm text-ink-600">No notes on this map yet.</p>
  return (
    <ul className="divide-y divide-ink-100" aria-label="Notes">
      {notes.map((note) => (
        <li
          key={note.id}
          className="flex flex-wrap items-start justify-between gap-2 py-3"
          data-testid="note"
        >
          <div className="min-w-0 space-y-0.5">
            <p className="flex items-center gap-2 font-medium text-ink-950">
              <ColorDot color={note.color} />
              {note.title}
              <span className="text-xs font-normal text-ink-500">
                {KIND_LABELS[note.kind]}
                {note.stockpileKind ? ` · ${STOCKPILE_LABELS[note.stockpileKind]}` : ''}
              </span>
            </p>
            {note.note ? <p className="whitespace-pre-line text-sm text-ink-800">{note.note}</p> : null}
            <NoteMeasurement note={note} />
            <p className="text-xs text-ink-500">
              {note.authorName} · {formatDate(note.createdAt)}
            </p>
          </div>
          {listPage && note.canEdit ? (
            <Link
              to={deleteNoteHref(listPage, note.id)}
              preventScrollReset
              className="btn-secondary text-sm"
              aria-label={`Delete ${note.title}`}
            >
              Delete
            </Link>
          ) : null}
        </li>
      ))}
    </ul>
  )
}

/** Links to the list's other pages (`?notes=N`), when it has more than one. */
function NotePager({ page, pages, total }: { page: number; pages: number; total: number }) {
  if (pages < 2) return null
  const link = (to: number, label: string, rel: string) => (
    <Link to={`?notes=${to}#notes-heading`} rel={rel} preventScrollReset className="btn-secondary btn-sm">
      {label}
    </Link>
  )
  return (
    <nav aria-label="Pages of notes" className="flex flex-wrap items-center gap-2 text-sm text-ink-700">
      {page > 1 ? link(page - 1, 'Earlier notes', 'prev') : null}
      <span>
        Page {page} of {pages} · {plural(total, 'note')}
      </span>
      {page < pages ? link(page + 1, 'Later notes', 'next') : null}
    </nav>
  )
}

export function NotesSection({
  projectId,
  page,
  materials,
  error,
  fieldErrors,
}: {
  projectId: number
  page: { notes: ListedNote[]; page: number; pages: number; total: number }
  /** The admin's materials: suggested as the material is typed; a listed one brings its density. */
  materials: Array<{ name: string; densityTPerM3: number }>
  error: string | null
  fieldErrors: Record<string, string[]> | null
}) {
  const busy = useIsPending({ intent: 'note-create', state: 'submitting' })
  const errorOf = (name: string) => fieldErrors?.[name]?.[0]
  return (
    <CardSection id="notes-heading" title="Notes">
      <NoteList notes={page.notes} listPage={page.page} />
      <NoteDeleteDialog projectId={projectId} page={page.page} notes={page.notes} />
      <NotePager page={page.page} pages={page.pages} total={page.total} />
      <Form
        method="get"
        action={`/api/projects/${projectId}/annotations/export`}
        reloadDocument
        className="flex flex-wrap items-end gap-2"
      >
        <SelectField
          labelProps={{ children: 'Format' }}
          selectProps={{ id: 'notes-export-format', name: 'format' }}
          options={NOTE_EXPORT_FORMATS.map((format) => ({
            value: format,
            label: NOTE_EXPORT_FORMAT_LABELS[format],
          }))}
        />
        <SelectField
          labelProps={{ children: 'Coordinates' }}
          selectProps={{ id: 'notes-export-crs', name: 'crs' }}
          options={NOTE_EXPORT_CRS_OPTIONS}
        />
        <button type="submit" className="btn-secondary">
          Export notes
        </button>
        <a href={`/api/projects/${projectId}/stockpiles.csv`} className="btn-secondary" download>
          Stockpile inventory CSV
        </a>
        <a href={`/api/projects/${projectId}/stockpiles.pdf`} className="btn-secondary" download>
          Stockpile inventory PDF
        </a>
      </Form>
      <ToolForm intent="note-create" errorId="note-error" error={error} className="grid gap-3 md:grid-cols-2">
        <h3 className="font-medium text-ink-950 md:col-span-2">Add a note</h3>
        <label className="block text-sm font-medium text-ink-900">
          Title
          <input name="title" required maxLength={NOTE_LIMITS.titleChars} className="input mt-1 w-full" />
          {errorOf('title') ? <span className="block text-sm text-red-700">{errorOf('title')}</span> : null}
        </label>
        <SelectField
          labelProps={{ children: 'Shape' }}
          selectProps={{ id: 'note-shape', name: 'kind', defaultValue: 'point' }}
          options={NOTE_SHAPE_OPTIONS}
        />
        <CoordinatesField
          label="Coordinates, one ‘latitude, longitude’ per line"
          rows={4}
          placeholder="-33.9200, 18.4200"
          error={errorOf('coordinates')}
          errorId="note-coordinates-error"
          className="md:col-span-2"
        />
        <label className="block text-sm font-medium text-ink-900 md:col-span-2">
          Note
          <textarea name="note" rows={2} maxLength={NOTE_LIMITS.noteChars} className="input mt-1 w-full" />
        </label>
        <fieldset className="text-sm">
          <legend className="font-medium text-ink-900">Colour</legend>
          <div className="mt-1 flex flex-wrap gap-2">
            {NOTE_COLORS.map((c) => (
              <label key={c} className="flex items-center gap-1">
                <input type="radio" name="color" value={c} defaultChecked={c === DEFAULT_NOTE_COLOR} />
                <span aria-hidden className="inline-block h-4 w-4 rounded-full" style={{ background: c }} />
                <span className="sr-only">{c}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid grid-cols-2 gap-2 text-sm">
          <PolygonVolumeSelects
            idPrefix="note"
            kind={{ name: 'stockpileKind', defaultValue: '' }}
            base={{ name: 'base', defaultValue: 'edge-mean' }}
          />
          <label className="col-span-2 font-medium text-ink-900">
            Typed base height (m)
            <input name="baseElevationM" type="number" step="0.01" className="input mt-1 w-32" />
            {errorOf('baseElevationM') ? (
              <span className="block text-red-700">{errorOf('baseElevationM')}</span>
            ) : null}
          </label>
          <label className="font-medium text-ink-900">
            Material
            <input
              name="material"
              maxLength={NOTE_LIMITS.materialChars}
              list="note-materials"
              className="input mt-1 w-full"
            />
            <datalist id="note-materials">
              {materials.map((m) => (
                <option key={m.name} value={m.name}>
                  {`${formatNumber(m.densityTPerM3, 3, { minDecimals: 1 })} t/m³`}
                </option>
              ))}
            </datalist>
            {errorOf('material') ? <span className="block text-red-700">{errorOf('material')}</span> : null}
          </label>
          <label className="font-medium text-ink-900">
            Density (t/m³)
            <span className="block text-xs font-normal text-ink-500">Empty: the listed material’s</span>
            <input
              name="densityTPerM3"
              type="number"
              step="0.01"
              min="0.01"
              max={NOTE_LIMITS.densityTPerM3}
              className="input mt-1 w-32"
            />
            {errorOf('densityTPerM3') ? (
              <span className="block text-red-700">{errorOf('densityTPerM3')}</span>
            ) : null}
          </label>
        </div>
        <div className="md:col-span-2">
          {error ? (
            <p id="note-error" role="alert" className="mb-2 rounded-lg bg-red-50 p-3 text-sm text-red-800">
              {error}
            </p>
          ) : null}
          <StatusButton type="submit" pending={Boolean(busy)} pendingLabel="Saving…">
            Save note
          </StatusButton>
        </div>
      </ToolForm>
    </CardSection>
  )
}
