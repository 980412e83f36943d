/**
 * The client's land owner agreement (Annexure G) on their project: status, the template
 * to print, the signed copy with download and delete, and the upload control.
 */
import { Form } from '@remix-run/react'
import { cn } from '#app/components/ui/cn.ts'
import { usePendingFormData } from '#app/components/ui/use-is-pending.ts'
import type { FileView } from '#app/domain/files/file-view.ts'
import { FILE_MESSAGES } from '#app/domain/files/rules.ts'
import { formatFileSize } from '#app/lib/format/numbers.ts'

import { UploadWidget } from './upload-widget.tsx'

const LANDOWNER_TEMPLATE_URL = '/landowner-permission-template.pdf'

export function LandOwnerPanel({
  projectId,
  files,
  action,
}: {
  projectId: number
  files: FileView[]
  action: string
}) {
  const agreements = files.filter((f) => f.fileCategory === 'land_owner_agreement')
  const removingForm = usePendingFormData({ intent: 'remove-land-owner-form' })
  const removing = removingForm ? Number(removingForm.get('fileId')) : null
  const done = agreements.length > 0
  return (
    <section
      aria-labelledby={`landowner-${projectId}`}
      className="mt-5 space-y-3 rounded-lg border border-ink-100 p-4"
      data-testid="land-owner-panel"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3
          id={`landowner-${projectId}`}
          className="text-sm font-semibold uppercase tracking-wide text-ink-500"
        >
          Land owner agreement
        </h3>
        <span
          className={cn('badge', done ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900')}
        >
          {done ? 'Complete' : 'Required'}
        </span>
      </div>
      <p className="text-sm text-ink-600">
        Print the{' '}
        <a
          href={LANDOWNER_TEMPLATE_URL}
          className="font-medium text-sky-700 underline"
          target="_blank"
          rel="noreferrer"
        >
          land owner permission template (Annexure G)
        </a>
        , have the land owner sign it, then upload the signed copy (PDF, Word or a photo, up to 10MB).
      </p>
      {agreements.length ? (
        <ul
          className="divide-y divide-ink-100 rounded-md border border-ink-100"
          aria-label="Signed land owner agreements"
        >
          {agreements.map((file) => (
            <li key={file.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span className="min-w-0 truncate text-ink-900" title={file.originalName}>
                {file.originalName}{' '}
                <span className="text-xs text-ink-500">({formatFileSize(file.fileSize)})</span>
              </span>
              <span className="flex items-center gap-2">
                <a href={file.fileUrl} className="btn-secondary btn-sm" download={file.originalName}>
                  Download
                </a>
                <Form method="post" action={action}>
                  <input type="hidden" name="intent" value="remove-land-owner-form" />
                  <input type="hidden" name="fileId" value={file.id} />
                  <button
                    type="submit"
                    className="btn-danger-quiet btn-sm"
                    disabled={removing === file.id}
                    aria-label={`Remove ${file.originalName}`}
                  >
                    {removing === file.id ? 'Removing…' : 'Remove'}
                  </button>
                </Form>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <UploadWidget
        projectId={projectId}
        category="land_owner_agreement"
        action={action}
        label={done ? 'Upload another signed copy' : 'Upload the signed agreement'}
        successTitle={FILE_MESSAGES.landOwnerUploaded}
      />
    </section>
  )
}
