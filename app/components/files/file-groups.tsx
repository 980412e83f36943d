/**
 * A project's files grouped as images, videos, documents and deliverables, each with
 * download and (where allowed) delete. Delete is a one-field form (`intent=delete-file`)
 * posted to the page, so it works without JavaScript.
 */
import { Form, useNavigation } from '@remix-run/react'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { CATEGORY_LABELS, type FileCategory } from '#app/domain/files/rules.ts'
import { formatDate } from '#app/domain/format/dates.ts'
import { formatFileSize } from '#app/domain/format/numbers.ts'

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

function DeleteButton({ file, action }: { file: ListedFile; action: string }) {
  const navigation = useNavigation()
  const pending =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'delete-file' &&
    navigation.formData?.get('fileId') === String(file.id)
  return (
    <Form method="post" action={action} preventScrollReset>
      <input type="hidden" name="intent" value="delete-file" />
      <input type="hidden" name="fileId" value={file.id} />
      <StatusButton
        pending={pending}
        pendingLabel="Deleting..."
        className="btn-ghost btn-sm px-2 text-red-700 hover:bg-red-50"
        aria-label={`Delete ${file.originalName}`}
      >
        Delete
      </StatusButton>
    </Form>
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
                    </p>
                  </div>
                  {canDelete(f) ? <DeleteButton file={f} action={deleteAction} /> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-xs text-ink-500">None</p>
          )}
        </div>
      ))}
    </div>
  )
}
