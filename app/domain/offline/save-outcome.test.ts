import { describe, expect, test } from 'vitest'

import { savedJobLines, TILE_GIVE_UP_AFTER, tileTally } from './save-outcome.ts'

const savedAt = '2027-01-15T08:30:00.000Z'

describe('savedJobLines', () => {
  test('a save with every tile says what it holds', () => {
    const lines = savedJobLines({
      savedAt,
      tiles: 120,
      tilesPlanned: 120,
      missionFile: '/api/projects/4/export/kmz',
      maxZoom: 16,
      capped: true,
    })
    expect(lines.title).toBe('Available offline — saved 15 Jan 2027, 10:30')
    expect(lines.detail).toBe(
      'Job card, areas, flight plan, mission file and 120 map tiles (zoom 12–16, limited to 400 tiles).',
    )
  })

  test('a save without tiles is still a save, and says how many tiles came', () => {
    const lines = savedJobLines({ savedAt, tiles: 0, tilesPlanned: 120, maxZoom: 16, capped: true })
    expect(lines.title).toMatch(/^Available offline — saved /)
    expect(lines.detail).toMatch(/^Saved — map tiles: 0 of 120 could be fetched\. /)
  })

  test('older packs (no planned count) read as complete', () => {
    expect(savedJobLines({ savedAt, tiles: 1, maxZoom: 18, capped: false }).detail).toBe(
      'Job card, areas, flight plan and 1 map tile (zoom 12–18).',
    )
  })
})

describe('tileTally', () => {
  test('gives up on a host that fails again and again, not on one miss', () => {
    const tally = tileTally()
    for (let i = 0; i < TILE_GIVE_UP_AFTER - 1; i++) tally.record(false)
    expect(tally.givenUp()).toBe(false)
    tally.record(true)
    for (let i = 0; i < TILE_GIVE_UP_AFTER - 1; i++) tally.record(false)
    expect(tally.givenUp()).toBe(false)
    tally.record(false)
    expect(tally.givenUp()).toBe(true)
    expect(tally.saved()).toBe(1)
  })
})
