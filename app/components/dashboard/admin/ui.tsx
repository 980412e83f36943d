/** Small building blocks shared by the admin tabs and dialogs. */
import { Form, isRouteErrorResponse, Link, useLocation, useRouteError } from '@remix-run/react'
import { cn } from '#app/components/ui/cn.ts'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { UrlDialog } from '#app/components/ui/url-dialog.tsx'
import { usePendingFormData } from '#app/components/ui/use-is-pending.ts'
import { type ReactNode } from 'react'

/** Role icon colours: admin red, pilot blue, client green. */
const ROLE_STYLE: Record<string, { dot: string; badge: string; label: string }> = {
  admin: { dot: 'bg-red-500', badge: 'bg-red-50 text-red-700 ring-1 ring-red-200', label: 'Admin' },
  pilot: { dot: 'bg-blue-500', badge: 'bg-blue-50 text-blue-700 ring-1 ring-blue-200', label: 'Pilot' },
  client: { dot: 'bg-green-500', badge: 'bg-green-50 text-green-700 ring-1 ring-green-200', label: 'Client' },
}

export function RoleBadge({ role }: { role: string }) {
  const style = ROLE_STYLE[role] ?? { dot: 'bg-ink-400', badge: 'bg-ink-100 text-ink-700', label: role }
  return (
    <span className={cn('badge gap-1.5', style.badge)} data-role={role}>
      <span aria-hidden="true" className={cn('h-2 w-2 rounded-full', style.dot)} />
      {style.label}
    </span>
  )
}

export function YesNoBadge({ yes, yesLabel, noLabel }: { yes: boolean; yesLabel: string; noLabel: string }) {
  return (
    <span className={cn('badge', yes ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900')}>
      {yes ? yesLabel : noLabel}
    </span>
  )
}

/** An Active/Inactive switch that is a one-field form (works without JavaScript). */
export function ActiveToggle({
  intent,
  id,
  isActive,
  label,
}: {
  intent: string
  id: number
  isActive: boolean
  label: string
}) {
  // Back to where the admin pressed it (tab, page, filters); the action falls back to the tab.
  const { pathname, search } = useLocation()
  const pending = usePendingFormData({ intent, fields: { id: String(id) } })
  const busy = pending !== null
  const shown = pending ? pending.get('isActive') === 'true' : isActive
  return (
    <Form method="post" action="/admin" preventScrollReset className="inline">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="isActive" value={String(!isActive)} />
      <input type="hidden" name="returnTo" value={pathname + search} />
      <button
        type="submit"
        role="switch"
        aria-checked={shown}
        aria-label={`${label}: ${shown ? 'Active' : 'Inactive'}. ${isActive ? 'Deactivate' : 'Activate'}`}
        disabled={busy}
        className="group inline-flex items-center gap-2 rounded-full text-xs font-semibold focus-visible:ring-2 focus-visible:ring-amber-400"
      >
        <span
          className={cn(
            'relative inline-flex h-5 w-9 items-center rounded-full transition',
            shown ? 'bg-emerald-500' : 'bg-ink-300',
          )}
        >
          <span
            className={cn(
              'inline-block h-4 w-4 transform rounded-full bg-white shadow transition',
              shown ? 'translate-x-4' : 'translate-x-0.5',
            )}
          />
        </span>
        <span className={shown ? 'text-emerald-700' : 'text-ink-500'}>{shown ? 'Active' : 'Inactive'}</span>
      </button>
    </Form>
  )
}

/**
 * A dialog that is a route — the shared `UrlDialog` with the admin
 * console's sizes: the server renders it over the dashboard, so it works without
 * JavaScript; with JavaScript it opens in place, traps focus and closes on Escape.
 */
export function AdminDialog({
  title,
  description,
  closeTo,
  children,
  wide = false,
}: {
  title: string
  description?: ReactNode
  closeTo: string
  children: ReactNode
  wide?: boolean
}) {
  return (
    <UrlDialog
      title={title}
      description={description}
      closeTo={closeTo}
      size={wide ? 'lg' : 'md'}
      replace={false}
    >
      {children}
    </UrlDialog>
  )
}

export function DialogActions({ closeTo, children }: { closeTo: string; children: ReactNode }) {
  return (
    <div className="mt-6 flex flex-col-reverse gap-2 border-t border-ink-100 pt-4 sm:flex-row sm:justify-end">
      <Link to={closeTo} preventScrollReset className="btn-secondary">
        Close
      </Link>
      {children}
    </div>
  )
}

/** The Active / Inactive radio pair of the hub, drone and pilot forms (active unless saved otherwise). */
export function ActiveStatusField({ name, initialValue }: { name: string; initialValue?: unknown }) {
  return (
    <fieldset>
      <legend className="label">Status</legend>
      <div className="flex gap-4 text-sm">
        {[
          ['true', 'Active'],
          ['false', 'Inactive'],
        ].map(([value, label]) => (
          <label key={value} className="inline-flex items-center gap-2">
            <input
              type="radio"
              name={name}
              value={value}
              defaultChecked={(initialValue ?? 'true') === value}
              className="h-4 w-4 accent-amber-500"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/** Close and the form's submit button ('Saving…' while it posts). */
export function SaveActions({
  closeTo,
  pending,
  children,
}: {
  closeTo: string
  pending: boolean
  children: ReactNode
}) {
  return (
    <DialogActions closeTo={closeTo}>
      <StatusButton pending={pending} pendingLabel="Saving…">
        {children}
      </StatusButton>
    </DialogActions>
  )
}

/** A list's "Create …" button: opens the new-item dialog (a route) over the tab, keeping the scroll. */
export function CreateLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} preventScrollReset className="btn-primary">
      {children}
    </Link>
  )
}

/** A table row's Edit and Delete links (both open dialogs as routes). */
export function RowActions({ editTo, deleteTo, label }: { editTo: string; deleteTo: string; label: string }) {
  return (
    <div className="flex gap-2">
      <Link to={editTo} preventScrollReset className="btn-secondary btn-sm" aria-label={`Edit ${label}`}>
        Edit
      </Link>
      <Link
        to={deleteTo}
        preventScrollReset
        className="btn-danger-quiet btn-sm"
        aria-label={`Delete ${label}`}
      >
        Delete
      </Link>
    </div>
  )
}

function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-sm text-ink-500">
        {children}
      </td>
    </tr>
  )
}

const th = 'px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-ink-500'

/**
 * The admin console's list table: a header row, then the rows, or one row saying the
 * list is empty. `columns` entries may carry extra classes (e.g. 'no-print').
 */
export function DataTable({
  columns,
  isEmpty,
  empty,
  bodyTestId,
  children,
}: {
  columns: Array<string | { label: string; className: string }>
  isEmpty: boolean
  empty: ReactNode
  bodyTestId?: string
  children: ReactNode
}) {
  return (
    // relative: a screen-reader-only label (position: absolute) in a cell scrolls with the table
    // instead of widening the page.
    <div className="relative overflow-x-auto">
      <table className="min-w-full divide-y divide-ink-100">
        <thead className="bg-ink-50/60">
          <tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th key={c} className={th}>
                  {c}
                </th>
              ) : (
                <th key={c.label} className={`${th} ${c.className}`}>
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-100 bg-white" data-testid={bodyTestId}>
          {isEmpty ? <EmptyRow colSpan={columns.length}>{empty}</EmptyRow> : children}
        </tbody>
      </table>
    </div>
  )
}
export const td = 'px-4 py-3 align-top text-sm text-ink-800'

/** Links to other pages of a list, keeping the other query parameters. */
export function Pagination({
  page,
  pageCount,
  hrefFor,
  label,
}: {
  page: number
  pageCount: number
  hrefFor: (page: number) => string
  label: string
}) {
  if (pageCount <= 1) return null
  return (
    <nav
      aria-label={label}
      className="no-print flex items-center justify-between gap-2 border-t border-ink-100 px-4 py-3 text-sm"
    >
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} preventScrollReset className="btn-secondary btn-sm" rel="prev">
          ← Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-ink-500">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} preventScrollReset className="btn-secondary btn-sm" rel="next">
          Next →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}

/** A dialog route's error (unknown record, no access) shown as a dialog over the tab, not a blank page. */
export function AdminDialogErrorBoundary() {
  const error = useRouteError()
  const message = isRouteErrorResponse(error)
    ? error.status === 404
      ? 'This record does not exist (any more).'
      : typeof error.data === 'string' && error.data
        ? error.data
        : `${error.status}: ${error.statusText}`
    : 'Something went wrong. Please try again.'
  return (
    <AdminDialog
      title={isRouteErrorResponse(error) && error.status === 404 ? 'Not found' : 'Error'}
      closeTo="/admin"
    >
      <p className="text-sm text-ink-700">{message}</p>
    </AdminDialog>
  )
}
