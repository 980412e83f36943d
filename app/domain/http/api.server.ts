/**
 * The /api conventions of api.md: JSON in and out, `{ error, fieldErrors? }` on
 * failure, the right 4xx for bad input and never a stack trace.
 */
import { json } from '@remix-run/node'
import type { z } from 'zod'
import { DomainError, type FieldErrors } from './domain-error.ts'

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

/** Reads a JSON body and validates it; 400 with field errors when it doesn't fit. */
export async function readJsonBody<S extends z.ZodTypeAny>(request: Request, schema: S): Promise<z.infer<S>> {
  let body: unknown
  try {
    const text = await request.text()
    body = text ? JSON.parse(text) : {}
  } catch {
    apiFail(400, 'The request body must be valid JSON.')
  }
  const result = await schema.safeParseAsync(body)
  if (!result.success) {
    const fieldErrors = zodFieldErrors(result.error)
    const first = Object.values(fieldErrors)[0]?.[0] ?? 'Invalid input'
    apiFail(400, first, { fieldErrors })
  }
  return result.data
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
    return apiError(error.status, error.message, {
      ...error.extra,
      ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
    })
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
