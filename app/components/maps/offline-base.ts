/**
 * What the maps draw when no tile server answers: a coordinate grid with labels,
 * the gazetteer's towns and the provinces' names, so a client can still find the site
 * without imagery. Pure and browser-safe (no Leaflet); the layer itself is
 * `offline-base-layer.client.tsx`.
 */
import { formatNumber } from '#app/lib/format/numbers.ts'

export interface ViewBounds {
  south: number
  west: number
  north: number
  east: number
}

export interface GazetteerPlace {
  name: string
  province: string | null
  lat: number
  lng: number
}

/** Grid spacings in degrees, widest first. */
const GRID_STEPS = [10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001]
/** At most this many grid lines across the view each way. */
const MAX_GRID_LINES = 6
/** Town names are drawn from this zoom (the whole country shows provinces only). */
export const TOWN_MIN_ZOOM = 8
/** Province names are drawn up to this zoom. */
export const PROVINCE_MAX_ZOOM = 9
/** At most this many town names at once (a crowded map reads worse than a sparse one). */
const MAX_TOWNS = 40

/** The grid lines over the view: whole multiples of one step, with the decimals to print them. */
export function coordinateGrid(view: ViewBounds) {
  const span = Math.max(view.north - view.south, view.east - view.west)
  // The finest step that keeps the lines few (coarser steps come first in the list).
  const fitting = GRID_STEPS.filter((s) => span / s <= MAX_GRID_LINES)
  const step = fitting[fitting.length - 1] ?? GRID_STEPS[0]!
  const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9))
  const lines = (from: number, to: number) => {
    const out: number[] = []
    for (let k = Math.ceil(from / step); k * step <= to; k++) out.push(Number((k * step).toFixed(decimals)))
    return out
  }
  return {
    step,
    decimals,
    latitudes: lines(view.south, view.north),
    longitudes: lines(view.west, view.east),
  }
}

/** A grid line's label: '33,92° S', '18,86° E' (decimal comma, the house number format). */
export function gridLabel(value: number, axis: 'lat' | 'lng', decimals: number) {
  const hemisphere = axis === 'lat' ? (value < 0 ? 'S' : 'N') : value < 0 ? 'W' : 'E'
  const degrees = formatNumber(Math.abs(value), decimals)
  return value === 0 ? `${degrees}°` : `${degrees}° ${hemisphere}`
}

/**
 * The towns to name in the view (from TOWN_MIN_ZOOM): at most MAX_TOWNS, nearest the
 * middle first and one per cell of a coarse grid, so names do not pile up in a city.
 */
export function townsInView(places: readonly GazetteerPlace[], view: ViewBounds, zoom: number) {
  if (zoom < TOWN_MIN_ZOOM) return []
  const midLat = (view.south + view.north) / 2
  const midLng = (view.west + view.east) / 2
  const inside = places
    .filter((p) => p.lat >= view.south && p.lat <= view.north && p.lng >= view.west && p.lng <= view.east)
    .map((p) => ({ p, d: (p.lat - midLat) ** 2 + (p.lng - midLng) ** 2 }))
    .sort((a, b) => a.d - b.d)
    .map(({ p }) => p)
  const cells = new Set<string>()
  const side = Math.ceil(Math.sqrt(MAX_TOWNS))
  const picked: GazetteerPlace[] = []
  for (const place of inside) {
    const row = Math.floor(((place.lat - view.south) / (view.north - view.south || 1)) * side)
    const col = Math.floor(((place.lng - view.west) / (view.east - view.west || 1)) * side)
    const key = `${row}/${col}`
    if (cells.has(key)) continue
    cells.add(key)
    picked.push(place)
    if (picked.length === MAX_TOWNS) break
  }
  return picked
}

/** Where each province's name goes: the middle of its towns (up to PROVINCE_MAX_ZOOM). */
export function provinceLabels(places: readonly GazetteerPlace[]) {
  const sums = new Map<string, { lat: number; lng: number; count: number }>()
  for (const place of places) {
    if (!place.province) continue
    const sum = sums.get(place.province) ?? { lat: 0, lng: 0, count: 0 }
    sum.lat += place.lat
    sum.lng += place.lng
    sum.count++
    sums.set(place.province, sum)
  }
  return [...sums].map(([name, s]) => ({ name, lat: s.lat / s.count, lng: s.lng / s.count }))
}

/** The town nearest a point (for "near <town>" when no name is in view). */
export function nearestTown(places: readonly GazetteerPlace[], lat: number, lng: number) {
  let best: GazetteerPlace | null = null
  let bestDistance = Infinity
  const k = Math.cos((lat * Math.PI) / 180)
  for (const place of places) {
    const d = (place.lat - lat) ** 2 + ((place.lng - lng) * k) ** 2
    if (d < bestDistance) {
      bestDistance = d
      best = place
    }
  }
  return best && { place: best, km: (Math.sqrt(bestDistance) * Math.PI * 6371) / 180 }
}
