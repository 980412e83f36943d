/**
 * The one error a domain service throws when a business rule refuses a request.
 * It carries the HTTP status, the user-facing message (the product's string) and, for
 * forms, the field errors; `domainErrorResponse` (api.server.ts) turns it into the
 * /api error shape, page actions show `message` and `fieldErrors` in the form.
 * Browser-safe: shared schemas and client code may import it.
 */
export type FieldErrors = Record<string, string[]>

export type DomainErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503 | 507

export class DomainError extends Error {
  readonly status: DomainErrorStatus
  readonly fieldErrors?: FieldErrors
  /** Extra members of the /api error body (e.g. `{ quote }` on a 409). */
  readonly extra: Record<string, unknown>
  /** Response headers that belong to the refusal (e.g. `Retry-After` on a 429). */
  readonly headers: Record<string, string>

  constructor(
    status: DomainErrorStatus,
    message: string,
    options: {
      fieldErrors?: FieldErrors
      extra?: Record<string, unknown>
      headers?: Record<string, string>
    } = {},
  ) {
    super(message)
    this.name = 'DomainError'
    this.status = status
    this.fieldErrors = options.fieldErrors
    this.extra = options.extra ?? {}
    this.headers = options.headers ?? {}
  }
}

/** A DomainError (of that status, when one is given). */
export function isDomainError(error: unknown, status?: DomainErrorStatus): error is DomainError {
  return error instanceof DomainError && (status === undefined || error.status === status)
}
