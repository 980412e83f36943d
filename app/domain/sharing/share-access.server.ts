/**
 * The public side of a share link (ADR 233): `/s/{token}` and what hangs below it. Every
 * answer carries `noindex` and `Referrer-Policy: no-referrer` (the token is in the URL:
 * it must not leak to search engines or to sites the viewer follows a link to).
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { sendFile, type SendFileInput } from '#app/domain/files/download.server.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { downloadNameOf } from '#app/domain/files/survey-dates.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { withApiErrors } from '#app/lib/http/api.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { DomainError, isDomainError } from '#app/lib/http/domain-error.ts'
import { idOrNull } from '#app/lib/http/page-errors.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'
import type { ProjectFile } from '#db/schema.ts'

import { recordShareOpen, resolveShareToken, type ResolvedShare } from './share-links.server.ts'
import { SHARE_MESSAGES } from './share-rules.ts'
import { shareViewerData, type ShareViewerData } from './share-viewer.server.ts'
import { countUnknownToken, refuseGuessingAddress } from './token-guesses.server.ts'

const SHARE_PUBLIC_HEADERS = {
  'X-Robots-Tag': 'noindex, nofollow',
  'Referrer-Policy': 'no-referrer',
} as const

export type OpenShare = Extract<ResolvedShare, { state: 'open' }>

const GONE_MESSAGES = {
  revoked: 'Its owner has revoked this link. Ask them for a new one if you still need the files.',
  'project-reopened':
    'This link stopped when the survey was reopened for changes to its data. Ask its owner for a new link once the survey is delivered again.',
  expired: (date: string) => `This link expired on ${date}. Ask its owner for a new one.`,
  'files-removed':
    'The shared files are no longer kept: survey imagery is deleted once its delivery period ends.',
} as const

const UNKNOWN_LINK_MESSAGE = 'This share link does not exist. Check that you copied all of it.'

/**
 * The route's token only under `/s/` spelt so: Remix matches paths case-insensitively, and
 * `/S/{token}`, `/%73/…` or `//s/…` must not open a share (they answer as an unknown link).
 */
export function shareTokenOf(request: Request, token: string | undefined) {
  return new URL(request.url).pathname.startsWith('/s/') ? token : undefined
}

/**
 * The open link for a token, or a DomainError: 429 for an address that guesses, 404 for
 * an unknown token (counted as a guess), 410 for a revoked or expired link.
 */
export async function openShareToken(
  token: string | undefined,
  clientIp: string,
  { db = getDb(), now = new Date() }: { db?: DbOrTx; now?: Date } = {},
): Promise<OpenShare> {
  await refuseGuessingAddress(clientIp)
  const resolved = resolveShareToken(token, { db, now })
  if (resolved.state === 'unknown') {
    await countUnknownToken(clientIp)
    throw new DomainError(404, UNKNOWN_LINK_MESSAGE)
  }
  if (resolved.state === 'gone') {
    const message =
      resolved.reason === 'expired'
        ? GONE_MESSAGES.expired(formatDate(resolved.link.expiresAt))
        : GONE_MESSAGES[resolved.reason]
    throw new DomainError(410, message, { extra: { reason: resolved.reason } })
  }
  return resolved
}

/** Why the viewer page shows no files: an unknown token (404), a revoked or expired link (410), a guessing address (429). */
export type ClosedShare = { state: 'unknown' | 'gone' | 'limited'; message: string }

const CLOSED_STATES: Partial<Record<number, ClosedShare['state']>> = {
  404: 'unknown',
  410: 'gone',
  429: 'limited',
}

/**
 * The `/s/{token}` page: the open link's viewer data (its opening counted when `countOpen`),
 * or the closed state with the status and message `openShareToken` gave. The headers keep
 * the page private, unindexed and without a referrer (and carry `Retry-After` on a 429).
 */
export async function openShareViewer(
  token: string | undefined,
  clientIp: string,
  { countOpen, db = getDb(), now = new Date() }: { countOpen: boolean; db?: DbOrTx; now?: Date },
): Promise<{
  body: (ShareViewerData & { tileUrl: string }) | ClosedShare
  status: number
  headers: Headers
}> {
  const headers = new Headers(SHARE_PUBLIC_HEADERS)
  headers.set('Cache-Control', 'private, no-store')
  try {
    const share = await openShareToken(token, clientIp, { db, now })
    if (countOpen) recordShareOpen(share.link, { db, now })
    const body = { ...shareViewerData(token!, share), tileUrl: getEnv().TILE_URL }
    return { body, status: 200, headers }
  } catch (error) {
    if (!isDomainError(error)) throw error
    const state = CLOSED_STATES[error.status]
    if (!state) throw error
    for (const [name, value] of Object.entries(error.headers)) headers.set(name, value)
    return { body: { state, message: error.message }, status: error.status, headers }
  }
}

/**
 * A file the link shares, from the route's file id (404 otherwise: another project's, not
 * chosen, or not an id at all — the same JSON answer, so a malformed id tells nothing more).
 */
export function sharedFile(share: OpenShare, fileIdParam: string | undefined): ProjectFile {
  const fileId = idOrNull(fileIdParam)
  const file = fileId === null ? undefined : share.files.find((f) => f.id === fileId)
  if (!file) throw new DomainError(404, SHARE_MESSAGES.fileNotShared)
  return file
}

/** Downloads need a link that allows them. */
export function requireDownloadAllowed(share: OpenShare) {
  if (!share.link.allowDownload) throw new DomainError(403, SHARE_MESSAGES.viewOnly)
}

/** Runs a public share route: DomainErrors become `{ error }` answers; every answer gets the public headers. */
async function withShareErrors(run: () => Promise<Response> | Response): Promise<Response> {
  const response = await withApiErrors(run)
  for (const [name, value] of Object.entries(SHARE_PUBLIC_HEADERS)) response.headers.set(name, value)
  return response
}

/**
 * Whether this request starts a download (counted), rather than resuming one or a
 * conditional re-check: a GET without a Range, or one from byte 0.
 */
export function startsDownload(request: Request) {
  if (request.method !== 'GET' || request.headers.has('If-None-Match')) return false
  const range = request.headers.get('Range')
  return !range || /^\s*bytes\s*=\s*0-/i.test(range)
}

/**
 * A share link's resource route (`/s/{token}/…`): `resourceRoute` with the link opened first
 * (429, 404 or 410 before `GET` runs) and the public headers and `{ error }` answers of `withShareErrors`.
 */
export function shareRoute(
  GET: (share: OpenShare, args: LoaderFunctionArgs) => Response | Promise<Response>,
) {
  return resourceRoute({
    errors: withShareErrors,
    GET: async (args) =>
      GET(
        await openShareToken(shareTokenOf(args.request, args.params.token), clientIpOf(args.context)),
        args,
      ),
  })
}

/** A file the link shares, sent as stored (ETag, Range) under the project's download name. */
export function sendSharedFile(
  request: Request,
  share: OpenShare,
  file: ProjectFile,
  options: Pick<SendFileInput, 'disposition' | 'cacheControl'> = {},
) {
  return sendFile(request, {
    path: absolutePathOf(file),
    size: file.fileSize,
    mime: file.fileType,
    sha256: file.sha256,
    downloadName: downloadNameOf(file.originalName, share.project),
    lastModified: file.createdAt,
    ...options,
  })
}
