/**
 * The map tiles an offline job pack keeps (ADR 140): for each survey area, the tiles
 * covering its bounding box (plus a one-tile margin) from `minZoom` up, zoom by zoom,
 * until the next zoom would pass `maxTiles`. Pure and browser-safe.
 */
import type { LatLng } from '#app/domain/geometry/areas.ts'

export interface Tile {
  z: number
  x: number
  y: number
}

export const OFFLINE_TILE_LIMITS = {
  /** Zoom 12 shows the roads around a site; 18 the ground at a useful detail. */
  minZoom: 12,
  maxZoom: 18,
  /** At most this many tiles per job (~10–20 kB each for satellite imagery: a few MB). */
  maxTiles: 400,
} as const

/** Web Mercator tile column of a longitude at zoom z. */
export function tileX(longitude: number, z: number) {
  const n = 2 ** z
  return Math.min(n - 1, Math.max(0, Math.floor(((longitude + 180) / 360) * n)))
}

/** Web Mercator tile row of a latitude at zoom z. */
export function tileY(latitude: number, z: number) {
  const n = 2 ** z
  const rad = (latitude * Math.PI) / 180
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)
  return Math.min(n - 1, Math.max(0, y))
}

function tilesAtZoom(areas: LatLng[][], z: number): Tile[] {
  const seen = new Set<string>()
  const tiles: Tile[] = []
  const last = 2 ** z - 1
  for (const area of areas) {
    if (!area.length) continue
    const lats = area.map((p) => p.latitude)
    const lngs = area.map((p) => p.longitude)
    const x0 = Math.max(0, tileX(Math.min(...lngs), z) - 1)
    const x1 = Math.min(last, tileX(Math.max(...lngs), z) + 1)
    // Rows grow southwards: the northern edge has the smaller row.
    const y0 = Math.max(0, tileY(Math.max(...lats), z) - 1)
    const y1 = Math.min(last, tileY(Math.min(...lats), z) + 1)
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        const key = `${x}/${y}`
        if (seen.has(key)) continue
        seen.add(key)
        tiles.push({ z, x, y })
      }
    }
  }
  return tiles
}

/**
 * The tiles for a job's areas: every tile of each zoom from `minZoom` while the total stays
 * within `maxTiles`. `maxZoom` in the answer is the deepest zoom kept (below `minZoom` when
 * not even the first zoom fits), `capped` says the tile limit stopped it early.
 */
export function tilesForAreas(
  areas: LatLng[][],
  options: { minZoom?: number; maxZoom?: number; maxTiles?: number } = {},
): { tiles: Tile[]; minZoom: number; maxZoom: number; capped: boolean } {
  const minZoom = options.minZoom ?? OFFLINE_TILE_LIMITS.minZoom
  const maxZoom = options.maxZoom ?? OFFLINE_TILE_LIMITS.maxZoom
  const maxTiles = options.maxTiles ?? OFFLINE_TILE_LIMITS.maxTiles
  const tiles: Tile[] = []
  for (let z = minZoom; z <= maxZoom; z++) {
    const level = tilesAtZoom(areas, z)
    if (tiles.length + level.length > maxTiles) {
      return { tiles, minZoom, maxZoom: z - 1, capped: true }
    }
    tiles.push(...level)
  }
  return { tiles, minZoom, maxZoom, capped: false }
}

/** A tile's address from a Leaflet URL template (`{z}`, `{x}`, `{y}`, `{s}` → `a`). */
export function tileUrl(template: string, tile: Tile) {
  return template
    .replaceAll('{z}', String(tile.z))
    .replaceAll('{x}', String(tile.x))
    .replaceAll('{y}', String(tile.y))
    .replaceAll('{s}', 'a')
    .replaceAll('{r}', '')
}

/** The origin tiles come from (a `{s}` subdomain placeholder counts as `a`). */
export function tileOrigin(template: string, base?: string) {
  try {
    return new URL(tileUrl(template, { z: 0, x: 0, y: 0 }), base).origin
  } catch {
    return null
  }
}
