/**
 * The project file upload control. Without JavaScript it is a plain multipart <Form>
 * (intent, projectId, category, then the file) posting to a page action that calls
 * `receiveMultipartUpload`. With JavaScript each chosen file is sent with tus to /api/tus:
 * a progress bar per file, pause/resume, automatic retries with back-off, continuing when
 * the connection returns, and resuming after a reload (tus keeps the upload URL in
 * localStorage; choosing the same file again continues where it stopped).
 */
import { Form, useRevalidator } from '@remix-run/react'
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
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import type { Upload as TusUpload } from 'tus-js-client'

export const TUS_ENDPOINT = '/api/tus'
/** Back-off between automatic retries (ms); after the last one the item shows Retry. */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000]
/** One PATCH per 5 MB: short requests survive flaky mobile links and proxies with timeouts. */
export const CHUNK_SIZE = 5 * 1024 * 1024

export type UploadItemState = 'uploading' | 'paused' | 'completed' | 'error'

export interface UploadItem {
  key: string
  name: string
  size: number
  sent: number
  state: UploadItemState
  error?: string
  fileId?: number
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

function formatBytes(bytes: number) {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} B`
}

function errorText(error: unknown, name: string) {
  const body = (error as { originalResponse?: { getBody(): string } | null })?.originalResponse?.getBody?.()
  if (body) {
    try {
      const parsed = JSON.parse(body) as { error?: string }
      if (parsed.error) return parsed.error
    } catch {
      // not JSON
    }
  }
  return FILE_MESSAGES.uploadFailed(name)
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
  const [items, setItems] = useState<UploadItem[]>([])
  const uploads = useRef(new Map<string, TusUpload>())
  const limit = Math.max(...(['image', 'video', 'document'] as const).map((k) => limitFor(category, k)))

  const update = useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)))
  }, [])

  const itemsRef = useRef(items)
  itemsRef.current = items

  // Uploads waiting on the network continue as soon as it returns.
  useEffect(() => {
    const resumeAll = () => {
      const waiting = itemsRef.current.filter((item) => item.state === 'error' && !item.error)
      for (const item of waiting) uploads.current.get(item.key)?.start()
      const keys = new Set(waiting.map((item) => item.key))
      setItems((current) =>
        current.map((item) => (keys.has(item.key) ? { ...item, state: 'uploading' } : item)),
      )
    }
    window.addEventListener('online', resumeAll)
    return () => window.removeEventListener('online', resumeAll)
  }, [])

  useEffect(() => {
    const map = uploads.current
    return () => {
      for (const upload of map.values()) void upload.abort(false)
    }
  }, [])

  async function startUpload(file: File) {
    const problem = checkFileBeforeUpload(file, category, accept)
    if (problem) {
      toast({ ...problem, type: 'error' })
      return
    }
    const key = `${file.name}-${file.size}-${file.lastModified}-${Math.random().toString(36).slice(2)}`
    setItems((current) => [
      ...current,
      { key, name: file.name, size: file.size, sent: 0, state: 'uploading' },
    ])
    const tus = await import('tus-js-client')
    const upload = new tus.Upload(file, {
      endpoint: TUS_ENDPOINT,
      chunkSize: CHUNK_SIZE,
      retryDelays: RETRY_DELAYS,
      removeFingerprintOnSuccess: true,
      metadata: { filename: file.name, filetype: file.type, projectId: String(projectId), category },
      fingerprint: async (f) =>
        ['kestrel', projectId, category, f.name, f.type, f.size, (f as File).lastModified].join('|'),
      onProgress: (sent) => update(key, { sent }),
      onShouldRetry: (error, _attempt, options) => {
        const status =
          (error as { originalResponse?: { getStatus(): number } | null }).originalResponse?.getStatus() ?? 0
        if (status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429) return false
        // Offline: stop retrying now; the 'online' event continues the upload.
        return navigator.onLine !== false && (options.retryDelays?.length ?? 0) > 0
      },
      onError: (error) => {
        const status =
          (error as { originalResponse?: { getStatus(): number } | null }).originalResponse?.getStatus() ?? 0
        // Offline or a server hiccup: keep the item resumable (no message); refused: say why.
        const refused = status >= 400 && status < 500
        update(key, { state: 'error', error: refused ? errorText(error, file.name) : undefined })
        if (!refused && navigator.onLine === false) return
        toast({
          title: FILE_MESSAGES.uploadFailedTitle,
          description: refused ? errorText(error, file.name) : FILE_MESSAGES.uploadFailed(file.name),
          type: 'error',
        })
      },
      onSuccess: ({ lastResponse }) => {
        const fileId = Number(lastResponse.getHeader('X-Project-File-Id')) || undefined
        update(key, { state: 'completed', sent: file.size, fileId })
        uploads.current.delete(key)
        toast({ title: successTitle, description: file.name, type: 'success' })
        if (fileId) onUploaded?.({ id: fileId, name: file.name })
        revalidator.revalidate()
      },
    })
    uploads.current.set(key, upload)
    const previous = await upload.findPreviousUploads()
    if (previous[0]) upload.resumeFromPreviousUpload(previous[0])
    upload.start()
  }

  function pause(key: string) {
    void uploads.current.get(key)?.abort(false)
    update(key, { state: 'paused' })
  }

  function resume(key: string) {
    uploads.current.get(key)?.start()
    update(key, { state: 'uploading', error: undefined })
  }

  const acceptAttr = accept.join(',')
  const hint = `${describeAccept(accept)} · up to ${Math.round(Math.min(limit, FILE_LIMITS.video) / 1024 / 1024)}MB`

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
          for (const file of Array.from(input?.files ?? [])) void startUpload(file)
          if (input) input.value = ''
        }}
      >
        {/* The fields come before the file so the server can check them before storing anything. */}
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="projectId" value={projectId} />
        <input type="hidden" name="category" value={category} />
        <div className="flex-1">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
            {label}
          </label>
          <input
            id={inputId}
            type="file"
            name="file"
            required
            accept={acceptAttr}
            multiple={hydrated && multiple}
            className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-200"
            onChange={(event) => {
              if (!hydrated) return
              for (const file of Array.from(event.currentTarget.files ?? [])) void startUpload(file)
              event.currentTarget.value = ''
            }}
          />
          <p className="mt-1 text-xs text-slate-500">{hint}</p>
        </div>
        {/* With JavaScript a chosen file starts at once; the button is the no-JS submit. */}
        <button type="submit" className={cn('btn-primary', hydrated && 'sr-only')}>
          Upload
        </button>
      </Form>

      {items.length ? (
        <ul className="space-y-2" aria-label="Uploads">
          {items.map((item) => {
            const percent = item.size ? Math.floor((item.sent / item.size) * 100) : 100
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
                  <span className="shrink-0 text-xs text-slate-500">
                    {item.state === 'completed'
                      ? 'Completed'
                      : item.state === 'paused'
                        ? `Paused · ${percent}%`
                        : item.state === 'error'
                          ? item.error
                            ? 'Error'
                            : `Waiting for connection · ${percent}%`
                          : `Uploading · ${percent}%`}
                  </span>
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
                    className={cn(
                      'h-full rounded-full transition-all',
                      item.state === 'completed'
                        ? 'bg-emerald-500'
                        : item.state === 'error'
                          ? 'bg-red-500'
                          : 'bg-sky-600',
                    )}
                    style={{ width: `${percent}%` }}
                  />
                </div>
                <div className="mt-2 flex items-center justify-between gap-2 text-xs text-slate-500">
                  <span>
                    {formatBytes(item.sent)} of {formatBytes(item.size)}
                  </span>
                  {item.error ? <span className="text-red-700">{item.error}</span> : null}
                  <span className="flex gap-2">
                    {item.state === 'uploading' ? (
                      <button
                        type="button"
                        className="btn-secondary px-2 py-1 text-xs"
                        onClick={() => pause(item.key)}
                      >
                        Pause
                      </button>
                    ) : null}
                    {item.state === 'paused' || (item.state === 'error' && !item.error) ? (
                      <button
                        type="button"
                        className="btn-secondary px-2 py-1 text-xs"
                        onClick={() => resume(item.key)}
                      >
                        {item.state === 'paused' ? 'Resume' : 'Retry'}
                      </button>
                    ) : null}
                  </span>
                </div>
              </li>
            )
          })}
        </ul>
      ) : null}
    </div>
  )
}
