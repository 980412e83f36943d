/**
 * The Create Project tab's place search: a combobox over /api/places as you type, and without
 * JavaScript a Search button that submits the project form as a GET for the server's list.
 */
import { useFetcher } from '@remix-run/react'
import { cn } from '#app/components/ui/cn.ts'
import type { PlaceResult } from '#app/domain/places/places.server.ts'
import { useEffect, useId, useRef, useState } from 'react'

export const MANUAL_ENTRY_MESSAGE = 'Manual entry available'

/**
 * The search box. Without JavaScript the Search button submits the surrounding form as a
 * GET; with it, typing shows suggestions from /api/places, and Search or Enter run that
 * search at once (submitting would validate the whole project form and close the list).
 */
export function PlaceSearch({
  initialQuery,
  hydrated,
  searching,
  onPick,
}: {
  initialQuery: string
  hydrated: boolean
  searching: boolean
  onPick: (place: PlaceResult) => void
}) {
  const fetcher = useFetcher<{ results: PlaceResult[]; message?: string }>()
  const [query, setQuery] = useState(initialQuery)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const listId = useId()
  const timer = useRef<ReturnType<typeof setTimeout>>()
  const blurTimer = useRef<ReturnType<typeof setTimeout>>()
  const input = useRef<HTMLInputElement>(null)
  const suggestions = fetcher.data?.results ?? []
  const failed =
    fetcher.state === 'idle' &&
    fetcher.data !== undefined &&
    suggestions.length === 0 &&
    query.trim().length >= 2

  useEffect(
    () => () => {
      clearTimeout(timer.current)
      clearTimeout(blurTimer.current)
    },
    [],
  )

  function onType(value: string) {
    setQuery(value)
    setActive(-1)
    clearTimeout(timer.current)
    if (value.trim().length < 2) {
      setOpen(false)
      return
    }
    timer.current = setTimeout(() => {
      fetcher.load(`/api/places?q=${encodeURIComponent(value.trim())}`)
      setOpen(true)
    }, 200)
  }

  function searchNow() {
    clearTimeout(timer.current)
    const q = query.trim()
    if (q.length < 2) return
    // Leaving the box for the button must not close the list this search opens.
    clearTimeout(blurTimer.current)
    fetcher.load(`/api/places?q=${encodeURIComponent(q)}`)
    setOpen(true)
    input.current?.focus()
  }

  function choose(place: PlaceResult) {
    onPick(place)
    setQuery(place.address)
    setOpen(false)
  }

  return (
    <div className="relative">
      <label htmlFor="location-search" className="label">
        Search a town, place or ‘lat, lng’ in South Africa
      </label>
      <div className="flex gap-2">
        <input
          ref={input}
          id="location-search"
          name="q"
          type="search"
          value={query}
          onChange={(e) => onType(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !(open && active >= 0 && suggestions[active])) {
              e.preventDefault()
              searchNow()
              return
            }
            if (!open || !suggestions.length) return
            if (e.key === 'ArrowDown') {
              e.preventDefault()
              setActive((i) => Math.min(i + 1, suggestions.length - 1))
            } else if (e.key === 'ArrowUp') {
              e.preventDefault()
              setActive((i) => Math.max(i - 1, 0))
            } else if (e.key === 'Enter' && active >= 0) {
              e.preventDefault()
              choose(suggestions[active]!)
            } else if (e.key === 'Escape') {
              setOpen(false)
            }
          }}
          onBlur={() => {
            blurTimer.current = setTimeout(() => setOpen(false), 150)
          }}
          autoComplete="off"
          role={hydrated ? 'combobox' : undefined}
          aria-expanded={hydrated ? open && suggestions.length > 0 : undefined}
          aria-controls={hydrated ? listId : undefined}
          aria-autocomplete={hydrated ? 'list' : undefined}
          aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
          placeholder="e.g. Stellenbosch or -33.93, 18.86"
          className="input"
        />
        <button
          type="submit"
          formMethod="get"
          formAction="/dashboard"
          formNoValidate
          onClick={
            hydrated
              ? (e) => {
                  e.preventDefault()
                  searchNow()
                }
              : undefined
          }
          className="btn-secondary shrink-0"
          disabled={searching}
        >
          {searching ? 'Searching…' : 'Search'}
        </button>
      </div>
      {hydrated && open && suggestions.length > 0 ? (
        <ul
          id={listId}
          role="listbox"
          className="absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-lg border border-ink-200 bg-white py-1 shadow-lg"
        >
          {suggestions.map((place, i) => (
            <li
              key={`${place.lat},${place.lng},${i}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault()
                choose(place)
              }}
              className={cn(
                'cursor-pointer px-3 py-2 text-sm',
                i === active ? 'bg-amber-50' : 'hover:bg-ink-50',
              )}
            >
              <span className="font-medium text-ink-900">{place.address}</span>
              <span className="ml-2 text-xs text-ink-500" data-format="coordinates">
                {`${place.lat.toFixed(4)}, ${place.lng.toFixed(4)}`}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {hydrated && open && failed ? (
        <p className="mt-1 text-xs text-amber-800" role="status">
          {fetcher.data?.message ?? 'No match.'} {MANUAL_ENTRY_MESSAGE}.
        </p>
      ) : null}
    </div>
  )
}
