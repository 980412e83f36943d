/**
 * The uploaded copy of a compliance document: a download link when there is
 * one, and a small multipart form to upload or replace it. Posts to `/document-copies`
 * and comes back to `back` with a toast, so it works without JavaScript. The target
 * fields come before the file, so the server can refuse a wrong target before storing.
 */
import { Form } from '@remix-run/react'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { DOCUMENT_COPY_ACCEPT, documentCopyHref } from '#app/domain/operator/document-copies.ts'
import { formatFileSize } from '#app/lib/format/numbers.ts'

export function DocumentCopyForm({
  target,
  copy,
  label,
  back,
}: {
  target: { operatorDocumentId: number } | { pilotId: number; document: 'rpl' | 'medical' }
  copy: { id: number; originalName: string; fileSize: number } | null | undefined
  /** What the copy is of, for the accessible names ('ROC ROC-ZA-1'). */
  label: string
  back: string
}) {
  const action = `/document-copies?back=${encodeURIComponent(back)}`
  const pending = useIsPending({ formAction: action, state: 'submitting' })
  const key =
    'operatorDocumentId' in target
      ? `op-${target.operatorDocumentId}`
      : `pilot-${target.pilotId}-${target.document}`
  return (
    <div className="space-y-1.5" data-testid={`copy-${key}`}>
      {copy ? (
        <a
          href={documentCopyHref(copy)}
          className="link block max-w-[14rem] truncate text-sm"
          title={copy.originalName}
          aria-label={`Download the copy of ${label}: ${copy.originalName}`}
        >
          {copy.originalName}
          <span className="ml-1 text-xs text-ink-500">({formatFileSize(copy.fileSize)})</span>
        </a>
      ) : (
        <p className="text-xs text-amber-800">No copy uploaded</p>
      )}
      <Form method="post" action={action} encType="multipart/form-data" className="flex items-center gap-2">
        {'operatorDocumentId' in target ? (
          <input type="hidden" name="operatorDocumentId" value={target.operatorDocumentId} />
        ) : (
          <>
            <input type="hidden" name="pilotId" value={target.pilotId} />
            <input type="hidden" name="document" value={target.document} />
          </>
        )}
        <label className="sr-only" htmlFor={`copy-file-${key}`}>
          {copy ? 'Replace' : 'Upload'} the copy of {label}
        </label>
        <input
          id={`copy-file-${key}`}
          type="file"
          name="file"
          required
          accept={DOCUMENT_COPY_ACCEPT.join(',')}
          className="block w-44 text-xs file:mr-2 file:rounded-md file:border-0 file:bg-ink-100 file:px-2 file:py-1 file:text-xs"
        />
        <StatusButton pending={pending} pendingLabel="Uploading…" variant="secondary" className="btn-sm">
          {copy ? 'Replace' : 'Upload'}
        </StatusButton>
      </Form>
    </div>
  )
}
