/**
 * The project file upload control. Without JavaScript it is a plain multipart <Form>
 * (intent, projectId, category, then the file) posting to a page action that calls
 * `receiveMultipartUpload`. With JavaScript each chosen file joins the page's upload
 * queue (`upload-queue-runner.ts`): tus to /api/tus with a progress bar per
 * file, pause/resume, automatic retries with back-off, `queued` while there is no signal,
 * and — kept in IndexedDB — continuing after a reload without choosing the file again.
 */
import { Form, useRevalidator } from '@remix-run/react'
import { controlAria, FieldFrame } from '#app/components/forms.tsx'
import { useToast } from '#app/components/layout/toaster.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import {
  CATEGORY_ACCEPT,
  checkFileBeforeUpload,
  describeAccept,
  FILE_LIMITS,
  FILE_MESSAGES,
  limitFor,
  type FileCategory,
} from '#app/domain/files/rules.ts'
import { uploadPercent, uploadStatusText, type UploadItem } from '#app/domain/files/upload-queue.ts'
import { formatFileSize } from '#app/lib/format/numbers.ts'
import { useOptionalUser } from '#app/root.tsx'
import { useEffect, useId, useRef, useSyncExternalStore } from 'react'

import { uploadQueue } from './upload-queue-runner.ts'

const NO_ITEMS: never[] = []

/** The progress bar's colour by the item's state. */
const BAR_COLOUR: Record<UploadItem['state'], string> = {
  queued: 'bg-amber-500',
  uploading: 'bg-sky-600',
  paused: 'bg-sky-600',
  completed: 'bg-emerald-500',
  error: 'bg-red-500',
}

export interface UploadWidgetProps {
  projectId: number
  category: FileCategory
  /** Accept list (mime wildcard, exact mime or extension); defaults to the category's. */
  accept?: readonly string[]
  multiple?: boolean
  /** Where the no-JavaScript form posts (a page action); default: the current route. */
  action?: string
  /** The hidden `intent` the page action dispatches on. */
  intent?: string
  label?: string
  /** Toast title on success (default 'Upload successful'). */
  successTitle?: string
  onUploaded?: (file: { id: number; name: string }) => void
  className?: string
}

export function UploadWidget({
  projectId,
  category,
  accept = CATEGORY_ACCEPT[category],
  multiple = false,
  action,
  intent = 'upload-file',
  label = 'Upload file',
  successTitle = FILE_MESSAGES.uploadSuccess,
  onUploaded,
  className,
}: UploadWidgetProps) {
  const hydrated = useHydrated()
  const inputId = useId()
  const toast = useToast()
  const revalidator = useRevalidator()
  const userId = useOptionalUser()?.id ?? null
  const allItems = useSyncExternalStore(uploadQueue.subscribe, uploadQueue.getSnapshot, () => NO_ITEMS)
  const items = allItems.filter((item) => item.projectId === projectId && item.category === category)
  const limit = Math.max(...(['image', 'video', 'document'] as const).map((k) => limitFor(category, k)))

  const onUploadedRef = useRef(onUploaded)
  onUploadedRef.current = onUploaded

  // Files kept on this device from before a reload continue (once per page).
  useEffect(() => {
    if (userId !== null) void uploadQueue.restore(userId)
  }, [userId])

  useEffect(
    () =>
      uploadQueue.onNotice((notice) => {
        if (notice.item.projectId !== projectId || notice.item.category !== category) return
        if (notice.type === 'refused') {
          toast({ title: FILE_MESSAGES.uploadFailedTitle, description: notice.error, type: 'error' })
          return
        }
        toast({ title: successTitle, description: notice.item.name, type: 'success' })
        if (notice.fileId) onUploadedRef.current?.({ id: notice.fileId, name: notice.item.name })
        revalidator.revalidate()
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- toast/revalidator are stable per page
    [projectId, category, successTitle],
  )

  function startUpload(file: File) {
    const problem = checkFileBeforeUpload(file, category, accept)
    if (problem) {
      toast({ ...problem, type: 'error' })
      return
    }
    void uploadQueue.add(file, { projectId, category, userId })
  }

  const acceptAttr = accept.join(',')
  // Deliverables go up to DELIVERABLE_MAX_BYTES through tus; a plain form post carries only a document.
  const hint =
    category === 'processed_deliverable'
      ? hydrated
        ? `${describeAccept(accept)} · up to ${formatFileSize(limit)}, resumable`
        : `${describeAccept(accept)} · up to ${Math.round(FILE_LIMITS.document / 1024 / 1024)}MB without JavaScript; turn JavaScript on for bigger files (they upload in resumable parts)`
      : `${describeAccept(accept)} · up to ${Math.round(Math.min(limit, FILE_LIMITS.video) / 1024 / 1024)}MB`

  return (
    <div
      className={cn('space-y-3', className)}
      data-upload-widget={category}
      data-ready={hydrated ? 'true' : undefined}
    >
      <Form
        method="post"
        encType="multipart/form-data"
        action={action}
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          if (!hydrated) return
          event.preventDefault()
          const input = event.currentTarget.elements.namedItem('file') as HTMLInputElement | null
          for (const file of Array.from(input?.files ?? [])) startUpload(file)
          if (input) input.value = ''
        }}
      >
        {/* The fields come before the file so the server can check them before storing anything. */}
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="projectId" value={projectId} />
        <input type="hidden" name="category" value={category} />
        <FieldFrame id={inputId} labelProps={{ children: label }} hint={hint} className="flex-1">
          <input
            id={inputId}
            type="file"
            name="file"
            required
            accept={acceptAttr}
            multiple={hydrated && multiple}
            {...controlAria(inputId, null, hint)}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-200"
            onChange={(event) => {
              if (!hydrated) return
              for (const file of Array.from(event.currentTarget.files ?? [])) startUpload(file)
              event.currentTarget.value = ''
            }}
          />
        </FieldFrame>
        {/* With JavaScript a chosen file starts at once; the button is the no-JS submit. */}
        <button type="submit" className={cn('btn-primary', hydrated && 'sr-only')}>
          Upload
        </button>
      </Form>

      {items.length ? (
        <ul className="space-y-2" aria-label="Uploads">
          {items.map((item) => {
            const percent = uploadPercent(item)
            return (
              <li
                key={item.key}
                className="rounded-lg border border-slate-200 bg-white p-3"
                data-state={item.state}
              >
                <div className="flex items-center justify-between gap-2 text-sm">
                  <span className="truncate font-medium text-slate-800" title={item.name}>
                    {item.name}
                  </span>
                  <span className="shrink-0 text-xs text-slate-500">{uploadStatusText(item)}</span>
                </div>
                <div
                  className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100"
                  role="progressbar"
                  aria-label={`Upload progress for ${item.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                >
                  <div
                    className={cn('h-full rounded-full transition-all', BAR_COLOUR[item.state])}
                    style={{ width: `${percent}%` }}
                  />
                </div>
                <div className="mt-2 flex items-center justify-between gap-2 text-xs text-slate-500">
                  <span>
                    {formatFileSize(item.sent)} of {formatFileSize(item.size)}
                  </span>
                  {item.error ? <span className="text-red-700">{item.error}</span> : null}
                  <span className="flex gap-2">
                    {item.state === 'uploading' ? (
                      <button
                        type="button"
                        className="btn-secondary px-2 py-1 text-xs"
                        onClick={() => uploadQueue.pause(item.key)}
                      >
                        Pause
                      </button>
                    ) : null}
                    {item.state === 'paused' || item.state === 'queued' ? (
                      <button
                        type="button"
                        className="btn-secondary px-2 py-1 text-xs"
                        onClick={() => uploadQueue.resume(item.key)}
                      >
                        {item.state === 'paused' ? 'Resume' : 'Retry now'}
                      </button>
                    ) : null}
                  </span>
                </div>
                {item.state !== 'completed' && item.state !== 'error' ? (
                  <p className="mt-1 text-xs text-slate-500">
                    {item.kept
                      ? 'Kept on this device until it is uploaded, also after a reload.'
                      : 'Keep this page open until it is uploaded.'}
                  </p>
                ) : null}
              </li>
            )
          })}
        </ul>
      ) : null}
    </div>
  )
}
