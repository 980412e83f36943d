/**
 * The one date format (screens, e-mails, PDFs, CSV): '23 November 2026' (or '23 Nov 2026' where a table
 * needs it short, with ', 14:05' when the time matters), in South African time. A date-only
 * value ('2027-02-01') is that calendar day. Nothing, or something unreadable, is '—'.
 */
export function formatDate(
  value: Date | string | null | undefined,
  { short = false, withTime = false }: { short?: boolean; withTime?: boolean } = {},
) {
  if (!value) return '—'
  const date =
    typeof value === 'string' ? new Date(value.length === 10 ? `${value}T12:00:00Z` : value) : value
  if (Number.isNaN(date.getTime())) return '—'
  const parts = new Intl.DateTimeFormat('en-ZA', {
    day: 'numeric',
    month: short ? 'short' : 'long',
    year: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
    timeZone: 'Africa/Johannesburg',
  }).formatToParts(date)
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? ''
  // Composed by hand: en-ZA pads the day in the short form ('01 Feb'), not in the long one.
  const day = `${Number(part('day'))} ${part('month')} ${part('year')}`
  return withTime ? `${day}, ${part('hour')}:${part('minute')}` : day
}

/** Today (or `now`'s day) as YYYY-MM-DD in South Africa (SAST, UTC+2 all year, no daylight saving). */
export function todayInSouthAfrica(now: Date = new Date()) {
  return new Date(now.getTime() + 2 * 60 * 60 * 1000).toISOString().slice(0, 10)
}

/** The last millisecond of a South African calendar day (YYYY-MM-DD; SAST is UTC+2 all year). */
export function endOfSaDay(isoDate: string) {
  return new Date(`${isoDate}T23:59:59.999+02:00`)
}

/** How long something has run: `40 s`, `12 min`, `3 h 05 min`. */
export function formatElapsed(ms: number | null | undefined) {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—'
  const s = Math.floor(ms / 1000)
  if (s < 60) return `${s} s`
  const min = Math.floor(s / 60)
  if (min < 60) return `${min} min`
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`
}
