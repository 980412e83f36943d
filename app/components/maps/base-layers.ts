/**
 * The maps' base layers: satellite imagery (TILE_URL), a street map
 * (STREET_TILE_URL) and a plain outline background that needs no network. When a tile
 * server does not answer, the map falls back one step and says so; drawing never depends
 * on tiles. Browser-safe, no Leaflet import.
 */
export const BASE_LAYERS = ['satellite', 'street', 'outline'] as const
export type BaseLayer = (typeof BASE_LAYERS)[number]

export const BASE_LAYER_LABELS: Record<BaseLayer, string> = {
  satellite: 'Satellite',
  street: 'Street map',
  outline: 'Outline',
}

/** A layer counts as failed after this many tile errors without a single tile loaded. */
export const TILE_FAILURE_THRESHOLD = 3

export interface TileCount {
  loaded: number
  failed: number
}

export function tilesFailed(count: TileCount) {
  return count.loaded === 0 && count.failed >= TILE_FAILURE_THRESHOLD
}

/** The layer to fall back to when `layer`'s tiles fail: satellite → street → outline. */
export function fallbackLayer(layer: BaseLayer): BaseLayer {
  return layer === 'satellite' ? 'street' : 'outline'
}

/** What the map says after falling back from `from` to `to`. */
export function tileFailureMessage(from: BaseLayer, to: BaseLayer) {
  const what = from === 'satellite' ? 'Satellite imagery' : 'The street map'
  return to === 'street'
    ? `${what} could not be loaded — showing the street map. You can still draw your areas.`
    : `${what} could not be loaded — showing the offline map (towns and a coordinate grid). You can still draw your areas.`
}

export const STREET_TILE_ATTRIBUTION = '© OpenStreetMap contributors'

/** What a read-only map (Map view, job map) says when it shows the offline map instead of the satellite tiles. */
export const OFFLINE_BASE_NOTICE =
  'Satellite imagery could not be loaded — showing the offline map (towns and a coordinate grid).'
