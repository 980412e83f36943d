/**
 * How the upload queue talks to /api/tus (tus-js-client, loaded on first use): 5 MB
 * chunks, tus's own retries of one request, and what an error means — a refusal the
 * server will never take, or a cut the queue tries again later.
 */
import { FILE_MESSAGES, type FileCategory } from '#app/domain/files/rules.ts'
import type { Upload as TusUpload } from 'tus-js-client'

const TUS_ENDPOINT = '/api/tus'
/** Back-off between tus's own retries of one request (ms); after the last the item is queued. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000]
/** One PATCH per 5 MB: short requests survive flaky mobile links and proxies with timeouts. */
const CHUNK_SIZE = 5 * 1024 * 1024

export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false

function statusOf(error: unknown) {
  return (error as { originalResponse?: { getStatus(): number } | null }).originalResponse?.getStatus() ?? 0
}

function refusalText(error: unknown, name: string) {
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

/** 4xx other than conflict/locked/too many: the server will never take this upload. */
function isRefusal(status: number) {
  return status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429
}

export interface TusTarget {
  blob: Blob
  /** A kept file continues at its own upload (HEAD asks the server for the offset). */
  uploadUrl: string | null
  projectId: number
  category: FileCategory
  name: string
  type: string
  size: number
  lastModified: number
}

export interface TusEvents {
  onUploadUrl(url: string): void
  onProgress(sent: number): void
  /** The server refused the file for good, with its message. */
  onRefused(message: string): void
  /** Cut by the network (or the server is away): worth trying again. */
  onCut(): void
  onSuccess(fileId: number | undefined): void
}

/**
 * Fetches the tus client's code while there is signal. A pilot who opens a job with signal
 * and picks a photo after losing it would otherwise need the code with no network, and the
 * browser remembers a failed module load for the page: the queued photo never went up.
 */
export function preloadTusClient() {
  if (!isOffline()) void import('tus-js-client').catch(() => undefined)
}

/** A tus upload of one file to /api/tus (not started). */
export async function createTusUpload(target: TusTarget, events: TusEvents): Promise<TusUpload> {
  const tus = await import('tus-js-client')
  const { projectId, category, name } = target
  const upload = new tus.Upload(target.blob, {
    endpoint: TUS_ENDPOINT,
    uploadUrl: target.uploadUrl ?? undefined,
    chunkSize: CHUNK_SIZE,
    retryDelays: RETRY_DELAYS,
    removeFingerprintOnSuccess: true,
    metadata: { filename: name, filetype: target.type, projectId: String(projectId), category },
    fingerprint: async () =>
      ['kestrel', projectId, category, name, target.type, target.size, target.lastModified].join('|'),
    onUploadUrlAvailable: () => {
      if (upload.url) events.onUploadUrl(upload.url)
    },
    onProgress: (sent) => events.onProgress(sent),
    onShouldRetry: (error, _attempt, opts) => {
      if (isRefusal(statusOf(error))) return false
      // Offline: stop retrying now; the 'online' event continues the upload.
      return !isOffline() && (opts.retryDelays?.length ?? 0) > 0
    },
    onError: (error) => {
      if (isRefusal(statusOf(error))) events.onRefused(refusalText(error, name))
      else events.onCut()
    },
    onSuccess: ({ lastResponse }) => {
      events.onSuccess(Number(lastResponse.getHeader('X-Project-File-Id')) || undefined)
    },
  })
  return upload
}
