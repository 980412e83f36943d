/**
 * The /api conventions of api.md: JSON in and out, `{ error, fieldErrors? }` on
 * failure, the right 4xx for bad input and never a stack trace.
 */
import { json } from '@remix-run/node'
import type { z } from 'zod'

export type FieldErrors = Record<string, string[]>

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
