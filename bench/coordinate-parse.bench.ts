/**
 * Pasted coordinates are parsed in linear time: the longest allowed line that made the
 * old regex backtrack, and a full-size paste, parse in microseconds to milliseconds.
 */
import { bench, describe } from 'vitest'
import { parseCoordinateText } from '#app/domain/projects/planner-input.server.ts'

const hostileLine = `-3${' '.repeat(96)}x`
const longPaste = Array.from({ length: 1000 }, (_, i) => `${(-33.9 - i * 1e-5).toFixed(6)}, ${(18.4 + (i % 7) * 1e-4).toFixed(6)}`).join('\n')

describe('pasted coordinates', () => {
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
