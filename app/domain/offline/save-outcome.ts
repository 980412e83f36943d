/**
 * How a "Save for offline" ends and what the job card says about it. Pure and
 * browser-safe: the page's saving code (`components/offline/offline-pack.ts`) keeps the
 * tally, the job card prints the lines.
 *
 * A save always ends: each request has a time limit, and once the tile host has failed
 * `TILE_GIVE_UP_AFTER` times in a row (no signal, blocked, out of reach) the remaining tiles
 * are counted as not fetched instead of waiting on each in turn.
 */
import { formatDate } from '#app/lib/format/dates.ts'
import { formatNumber, plural } from '#app/lib/format/numbers.ts'

import type { SavedJob } from './cache-rules.ts'
import { OFFLINE_TILE_LIMITS } from './tiles.ts'

/** Time limits of one request while saving (a hanging answer must not stop the save). */
export const SAVE_TIMEOUTS_MS = { page: 30_000, asset: 30_000, tile: 8_000 } as const
/** Consecutive tile failures after which the tile host counts as out of reach. */
export const TILE_GIVE_UP_AFTER = 12

/** Counts the tiles of one save: saved, failed, and whether to stop asking. */
export function tileTally() {
  let saved = 0
  let failedInARow = 0
  return {
    saved: () => saved,
    /** True once the host has failed too often in a row: the remaining tiles are skipped. */
    givenUp: () => failedInARow >= TILE_GIVE_UP_AFTER,
    record(ok: boolean) {
      if (ok) {
        saved++
        failedInARow = 0
      } else failedInARow++
    },
  }
}

/** The card's two lines about a saved job: when, and what it holds. */
export function savedJobLines(saved: SavedJob) {
  const planned = saved.tilesPlanned ?? saved.tiles
  const zooms = `zoom ${OFFLINE_TILE_LIMITS.minZoom}–${Math.max(saved.maxZoom, OFFLINE_TILE_LIMITS.minZoom)}`
  const limited = saved.capped ? `, limited to ${formatNumber(OFFLINE_TILE_LIMITS.maxTiles)} tiles` : ''
  const holds = `Job card, areas, flight plan${saved.missionFile ? ', mission file' : ''}`
  return {
    title: `Available offline — saved ${formatDate(saved.savedAt, { short: true, withTime: true })}`,
    detail:
      saved.tiles >= planned
        ? `${holds} and ${plural(saved.tiles, 'map tile')} (${zooms}${limited}).`
        : `Saved — map tiles: ${formatNumber(saved.tiles)} of ${formatNumber(planned)} could be fetched. ${holds} are kept; the map shows the areas on the offline map. Update the offline copy with signal for the imagery.`,
  }
}
