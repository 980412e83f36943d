/**
 * How a page route (not /api) answers what its services refuse: the route's ErrorBoundary
 * shows the status page. An id that is not a positive whole number is the same 404 as an
 * unknown one; a DomainError below 500 becomes that status with its message (a 404 for what
 * the user may not see, so existence does not leak).
 */
import { DomainError } from './domain-error.ts'

/** A positive whole id from a route parameter or form field (plain digits only); null otherwise. */
export function idOrNull(value: FormDataEntryValue | string | null | undefined): number | null {
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value)) return null
  const id = Number(value)
  return id > 0 && id <= 2 ** 31 ? id : null
}

/** The id of a page's route parameter; anything else is the 404 page. */
export function pageId(value: string | undefined): number {
  const id = idOrNull(value)
  if (id === null) throw new Response('Not Found', { status: 404 })
  return id
}

/** Runs a page's work; a refusal (DomainError below 500) becomes its status page. */
export async function asPage<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof DomainError && error.status < 500)
      throw new Response(error.message, { status: error.status, headers: error.headers })
    throw error
  }
}
