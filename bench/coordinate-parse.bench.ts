/**
 * Pasted coordinates are parsed in linear time: the longest allowed line that made the
 * old regex backtrack, and a full-size paste, parse in microseconds to milliseconds.
 */
import { parseCoordinatePair } from '#app/domain/places/places.server.ts'
import { parseCoordinateText } from '#app/domain/projects/planner-input.server.ts'
import { bench, describe } from 'vitest'

const hostileLine = `-3${' '.repeat(96)}x`
const longPaste = Array.from(
  { length: 1000 },
  (_, i) => `${(-33.9 - i * 1e-5).toFixed(6)}, ${(18.4 + (i % 7) * 1e-4).toFixed(6)}`,
).join('\n')

const hostilePairs = [
  `1${' '.repeat(200_000)}x`,
  `-1${'\t '.repeat(50_000)}1${' '.repeat(50_000)}!`,
  '1'.repeat(200_000),
  `1.${'1'.repeat(200_000)}, 2`,
]
const overlongLine = `-33.94, 18.86\n${'1'.repeat(100_000)} ${' '.repeat(99_000)}x`

describe('pasted coordinates', () => {
  bench('typed place search: four 200 000-character hostile pairs', () => {
    for (const text of hostilePairs) parseCoordinatePair(text)
  })
  bench('a 200 000-character line is refused', () => {
    try {
      parseCoordinateText(overlongLine)
    } catch {
      // refused by the line cap
    }
  })
  bench('a 100-character line that backtracked before', () => {
    try {
      parseCoordinateText(hostileLine)
    } catch {
      // refused with the line message, as the unit test checks
    }
  })
  bench('a paste of 1000 lines', () => {
    try {
      parseCoordinateText(longPaste)
    } catch {
      // a self-crossing ring may be refused; the parse itself is what is timed
    }
  })
})
