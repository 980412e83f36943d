/**
 * The one way a page action reads its body (ADR 070). A Remix `<Form>` posts
 * `application/x-www-form-urlencoded` or `multipart/form-data` from our own origin; any
 * other body (JSON, text/plain, a missing content type, a broken multipart stream) or a
 * post from another site is answered with a 4xx `{ error }` (shown by the route's error
 * boundary) instead of reaching the action and failing there as a 500.
 */
import {
  json,
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from '@remix-run/node'

import { declaresBodyOver, readTextWithin } from './body-limit.server.ts'
import { isDomainError } from './domain-error.ts'
import { assertSameOrigin } from './origin.server.ts'

const FORM_BODY_MESSAGES = {
  type: 'Please submit the form from the page (the request was not a form).',
  unreadable: 'The form could not be read.',
  tooLarge: 'The form is too large to send.',
} as const

/** Page forms without files stay far below this; uploads pass their own `maxBytes`. */
const DEFAULT_FORM_MAX_BYTES = 1024 * 1024

export interface FormBodyOptions {
  /** The largest body (urlencoded) or part (multipart) accepted. */
  maxBytes?: number
  /** Reads multipart parts (files); `MaxPartSizeExceededError` from it is rethrown for the caller to name the field. */
  uploadHandler?: UploadHandler
}

function fail(status: 400 | 413 | 415, error: string): never {
  throw json({ error }, { status })
}

function mediaType(request: Request) {
  return (request.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase()
}

function hasNoBody(request: Request) {
  return request.body === null || request.headers.get('Content-Length') === '0'
}

/**
 * The form a page action received. Throws a Response: 403 from another site, 415 for a
 * body that is not a form, 413 over `maxBytes`, 400 for a form that cannot be read. An
 * empty body without a content type reads as an empty form (a bare button post).
 */
export async function readFormBody(request: Request, options: FormBodyOptions = {}): Promise<FormData> {
  assertSameOrigin(request)
  const maxBytes = options.maxBytes ?? DEFAULT_FORM_MAX_BYTES
  const type = mediaType(request)
  if (!type && hasNoBody(request)) return new FormData()
  if (type === 'application/x-www-form-urlencoded') {
    try {
      const text = await readTextWithin(request, maxBytes)
      const form = new FormData()
      for (const [key, value] of new URLSearchParams(text)) form.append(key, value)
      return form
    } catch (error) {
      if (isDomainError(error, 413)) fail(413, FORM_BODY_MESSAGES.tooLarge)
      fail(400, FORM_BODY_MESSAGES.unreadable)
    }
  }
  if (type === 'multipart/form-data') {
    if (!/;\s*boundary=/i.test(request.headers.get('Content-Type') ?? ''))
      fail(400, FORM_BODY_MESSAGES.unreadable)
    if (!options.uploadHandler && declaresBodyOver(request, maxBytes)) fail(413, FORM_BODY_MESSAGES.tooLarge)
    const handler = options.uploadHandler ?? unstable_createMemoryUploadHandler({ maxPartSize: maxBytes })
    try {
      return await unstable_parseMultipartFormData(request, handler)
    } catch (error) {
      if (error instanceof MaxPartSizeExceededError) {
        if (options.uploadHandler) throw error
        fail(413, FORM_BODY_MESSAGES.tooLarge)
      }
      fail(400, FORM_BODY_MESSAGES.unreadable)
    }
  }
  fail(415, FORM_BODY_MESSAGES.type)
}
