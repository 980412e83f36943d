/**
 * Reading numbers from query strings. `Number('1e20')` is a valid number that no
 * SQLite OFFSET can hold, so page numbers are read as plain digits and clamped.
 * Browser-safe.
 */

/** The largest page number any list accepts; larger asks land on the last page anyway. */
const MAX_PAGE = 100_000

/** A 1-based page number from `?page=`: digits only, clamped to 1…MAX_PAGE; anything else is page 1. */
export function pageParam(value: string | null | undefined): number {
  if (!value || !/^\d{1,12}$/.test(value.trim())) return 1
  const page = Number(value.trim())
  return Math.min(Math.max(1, page), MAX_PAGE)
}

/** Clamps a page number a service received (possibly from elsewhere) to 1…pageCount. */
export function clampPage(page: number | undefined, pageCount = MAX_PAGE): number {
  if (page === undefined || !Number.isFinite(page)) return 1
  return Math.min(Math.max(1, Math.floor(page)), Math.max(1, pageCount))
}
