/**
 * A project's files grouped as images, videos, documents and deliverables, each with
 * download and (where allowed) delete. Delete asks first, naming the file and its size (a
 * deliverable may be 20 GB): Delete asks for `?confirmDeleteFile=ID` (a GET form), which renders
 * the confirmation on the server, so it works without JavaScript; with JavaScript it opens in place. The confirmation
 * posts `intent=delete-file` to the page.
 */
import { Form, useLocation } from '@remix-run/react'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { CATEGORY_LABELS, type FileCategory } from '#app/domain/files/rules.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatFileSize } from '#app/lib/format/numbers.ts'
import { useState } from 'react'

/** The URL state of the delete confirmation. */
const CONFIRM_PARAM = 'confirmDeleteFile'

export interface ListedFile {
  id: number
  originalName: string
  fileType: string
  fileSize: number
  fileCategory: FileCategory
  uploadedBy: number | null
  createdAt: string
  /** Set once the retention job deleted the bytes: listed as a record, without a link. */
  removedAt?: string | null
  /** A processing job's output not published yet (only admins are shown one). */
  withheld?: boolean
}

export function downloadHref(file: Pick<ListedFile, 'id' | 'originalName'>) {
  return `/api/download-file/${file.id}?filename=${encodeURIComponent(file.originalName)}`
}

function groupFiles<F extends Pick<ListedFile, 'fileType' | 'fileCategory'>>(files: F[]) {
  const deliverables = files.filter((f) => f.fileCategory === 'processed_deliverable')
  const rest = files.filter((f) => f.fileCategory !== 'processed_deliverable')
  return {
    images: rest.filter((f) => f.fileType.startsWith('image/')),
    videos: rest.filter((f) => f.fileType.startsWith('video/')),
    documents: rest.filter((f) => !f.fileType.startsWith('image/') && !f.fileType.startsWith('video/')),
    deliverables,
  }
}

/** The current page's URL with the confirmation for `fileId` open (null: closed). */
function withConfirm(location: { pathname: string; search: string }, fileId: number | null) {
  const params = new URLSearchParams(location.search)
  params.delete(CONFIRM_PARAM)
  if (fileId !== null) params.set(CONFIRM_PARAM, String(fileId))
  const search = params.toString()
  return `${location.pathname}${search ? `?${search}` : ''}`
}

function DeleteFileDialog({
  file,
  action,
  closeTo,
  onClose,
}: {
  file: ListedFile
  action: string
  closeTo: string
  onClose?: () => void
}) {
  return (
    <ConfirmDialog
      title="Delete this file?"
      closeTo={closeTo}
      onClose={onClose}
      replace
      action={action}
      intent="delete-file"
      fields={{ fileId: file.id }}
      confirmLabel="Delete file"
      pendingLabel="Deleting…"
      testId="delete-file-dialog"
    >
      <p>
        <strong className="break-all font-semibold text-ink-950">{file.originalName}</strong> (
        {formatFileSize(file.fileSize)}) will be deleted for good
        {file.fileCategory === 'processed_deliverable'
          ? ', with its viewing copies; nobody can download it afterwards.'
          : '.'}{' '}
        This cannot be undone.
      </p>
    </ConfirmDialog>
  )
}

export function FileGroups({
  files,
  canDelete,
  deleteAction,
  showDeliverables = true,
}: {
  files: ListedFile[]
  canDelete: (file: ListedFile) => boolean
  deleteAction: string
  showDeliverables?: boolean
}) {
  const location = useLocation()
  const hydrated = useHydrated()
  const [confirming, setConfirming] = useState<number | null>(null)
  const confirmId = confirming ?? Number(new URLSearchParams(location.search).get(CONFIRM_PARAM))
  const toDelete = files.find((f) => f.id === confirmId && canDelete(f))
  const keptParams = [...new URLSearchParams(location.search)].filter(([name]) => name !== CONFIRM_PARAM)
  const groups = groupFiles(files)
  const sections: Array<[string, ListedFile[]]> = [
    ['Images', groups.images],
    ['Videos', groups.videos],
    ['Documents', groups.documents],
    ...(showDeliverables ? ([['Deliverables', groups.deliverables]] as Array<[string, ListedFile[]]>) : []),
  ]
  if (!files.length) return <p className="text-sm text-ink-500">No files yet.</p>
  return (
    <div className="grid gap-4 sm:grid-cols-2" data-testid="file-groups">
      {sections.map(([label, list]) => (
        <div key={label}>
          <p className="text-sm font-medium text-ink-900">
            {label} ({list.length})
          </p>
          {list.length ? (
            <ul className="mt-1 divide-y divide-ink-100">
              {list.map((f) => (
                <li key={f.id} className="flex items-center justify-between gap-2 py-1.5 text-sm">
                  <div className="min-w-0">
                    {f.removedAt ? (
                      <span className="block truncate text-ink-500 line-through" title={f.originalName}>
                        {f.originalName}
                      </span>
                    ) : (
                      <a
                        className="link block truncate"
                        href={downloadHref(f)}
                        download={f.originalName}
                        title={f.originalName}
                      >
                        {f.originalName}
                      </a>
                    )}
                    <p className="text-xs text-ink-500">
                      {formatFileSize(f.fileSize)} · {CATEGORY_LABELS[f.fileCategory] ?? f.fileCategory}
                      {f.removedAt ? ` · deleted ${formatDate(f.removedAt)}` : ''}
                      {f.withheld ? ' · held until its processing job is published' : ''}
                    </p>
                  </div>
                  {canDelete(f) ? (
                    // A GET form to this page with the confirmation open: a button, as Delete was.
                    <Form
                      method="get"
                      action={location.pathname}
                      preventScrollReset
                      replace
                      className="shrink-0"
                      onSubmit={(event) => {
                        if (!hydrated) return
                        event.preventDefault()
                        setConfirming(f.id)
                      }}
                    >
                      {keptParams.map(([name, value]) => (
                        <input key={name} type="hidden" name={name} value={value} />
                      ))}
                      <input type="hidden" name={CONFIRM_PARAM} value={f.id} />
                      <button
                        type="submit"
                        className="btn-danger-quiet btn-sm"
                        aria-label={`Delete ${f.originalName}`}
                      >
                        Delete
                      </button>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-xs text-ink-500">None</p>
          )}
        </div>
      ))}
      {toDelete ? (
        <DeleteFileDialog
          file={toDelete}
          action={deleteAction}
          closeTo={withConfirm(location, null)}
          onClose={hydrated ? () => setConfirming(null) : undefined}
        />
      ) : null}
    </div>
  )
}
