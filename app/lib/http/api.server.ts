/**
 * The /api conventions: JSON in and out, `{ error, fieldErrors? }` on
 * failure, the right 4xx for bad input and never a stack trace.
 */
import { json } from '@remix-run/node'
import type { z } from 'zod'

import { DomainError, type FieldErrors } from './domain-error.ts'
import { JSON_TOO_DEEP_MESSAGE, jsonNestsDeeperThan } from './json-depth.ts'

export type { FieldErrors }

export function apiError(status: number, error: string, extra: Record<string, unknown> = {}) {
  return json({ error, ...extra }, { status })
}

/** Thrown from inside a route to answer with an API error. */
export function apiFail(status: number, error: string, extra: Record<string, unknown> = {}): never {
  throw apiError(status, error, extra)
}

export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'form'
    ;(out[key] ??= []).push(issue.message)
  }
  return out
}

const JSON_CONTENT_TYPE_MESSAGE = 'Send the request body as JSON (Content-Type: application/json).'
const INVALID_JSON_MESSAGE = 'The request body must be valid JSON.'

function isJsonType(contentType: string | null) {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' || /^application\/[a-z0-9.+-]{1,60}\+json$/.test(type)
}

/**
 * The JSON body of an /api write: 415 unless it is sent as `application/json` (a browser
 * cannot send that cross-site without asking first, which stops login CSRF by text/plain
 * posts), 400 when it is not JSON or nests deeper than any real request. An empty body is `{}`.
 */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text()
  if (!text) return {}
  if (!isJsonType(request.headers.get('Content-Type'))) apiFail(415, JSON_CONTENT_TYPE_MESSAGE)
  if (jsonNestsDeeperThan(text)) apiFail(400, JSON_TOO_DEEP_MESSAGE)
  try {
    return JSON.parse(text)
  } catch {
    apiFail(400, INVALID_JSON_MESSAGE)
  }
}

/**
 * Reads a JSON body (readJson) and validates it; 400 with field errors when it doesn't fit.
 * The `error` is the first field's message, or `message(fieldErrors)` when a form has one
 * message of its own (the hub forms).
 */
export async function readJsonBody<S extends z.ZodTypeAny>(
  request: Request,
  schema: S,
  options: { message?: (fieldErrors: FieldErrors) => string } = {},
): Promise<z.infer<S>> {
  const body = await readJson(request)
  return validOr400(await schema.safeParseAsync(body), options)
}

/**
 * Reads the query string (the first value of each parameter; a missing one is undefined)
 * and validates it like `readJsonBody`: 400 `{ error, fieldErrors }` when it doesn't fit.
 */
export function readQuery<S extends z.ZodTypeAny>(request: Request, schema: S): z.infer<S> {
  const query = new Map<string, string>()
  for (const [name, value] of new URL(request.url).searchParams) if (!query.has(name)) query.set(name, value)
  return validOr400(schema.safeParse(Object.fromEntries(query)))
}

function validOr400<T>(
  result: z.SafeParseReturnType<unknown, T>,
  options: { message?: (fieldErrors: FieldErrors) => string } = {},
): T {
  if (result.success) return result.data
  const fieldErrors = zodFieldErrors(result.error)
  const first = options.message?.(fieldErrors) ?? Object.values(fieldErrors)[0]?.[0] ?? 'Invalid input'
  apiFail(400, first, { fieldErrors })
}

export const NOTHING_TO_UPDATE_MESSAGE = 'Nothing to update'

/** A partial update (PUT/PATCH of some fields) must name at least one: else 400. */
export function assertSomethingToUpdate(input: Record<string, unknown>) {
  if (!Object.values(input).some((value) => value !== undefined)) apiFail(400, NOTHING_TO_UPDATE_MESSAGE)
}

/** Only these methods may be called on a resource route; anything else is 405. */
export function methodNotAllowed(allowed: string[]) {
  return json({ error: 'Method not allowed' }, { status: 405, headers: { Allow: allowed.join(', ') } })
}

export function parseId(value: string | undefined, label = 'id'): number {
  const id = Number(value)
  if (!Number.isInteger(id) || id <= 0) apiFail(400, `Invalid ${label}`)
  return id
}

/**
 * The one place a thrown failure becomes an /api answer: a Response passes through, a
 * DomainError becomes `{ error, fieldErrors?, ...extra }` with its status; anything else
 * is rethrown (a bug: the server logs it and answers 500).
 */
export function domainErrorResponse(error: unknown): Response {
  if (error instanceof Response) return error
  if (error instanceof DomainError) {
    const response = apiError(error.status, error.message, {
      ...error.extra,
      ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
    })
    for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value)
    return response
  }
  throw error
}

/** Runs an /api handler and answers its DomainErrors (and thrown Responses) with the right 4xx. */
export async function withApiErrors(run: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await run()
  } catch (error) {
    return domainErrorResponse(error)
  }
}
