/**
 * The lawn-mower grid over one area, in a local plane (ADR 080).
 *
 * Lines run at the azimuth θ (degrees clockwise from north), `spacing` metres apart,
 * centred across the area so the outer strips sit symmetrically inside its edges. Each
 * line is cut by every ring (outer boundary and holes) and the even-odd rule keeps only
 * the pieces inside: a concave area is split at its notches and a hole is skipped, so a
 * transect never bridges ground outside the area (QGroundControl keeps the two farthest
 * crossings instead and flies across the notch).
 *
 * The pieces are then flown nearest-first: from the end of one transect to the closest
 * end of the next, each extended by the turnaround distance at both ends.
 */
import { distance, type XY } from './local-plane.ts'

export interface Segment {
  start: XY
  end: XY
}

/** Pieces of line shorter than this (a grazed corner) are not flown. */
const MIN_TRANSECT_M = 1

/** More lines than this means the spacing is absurdly small for the area. */
const MAX_LINES_PER_AREA = 2000

const RAD = Math.PI / 180

/** The azimuth (0–180°) of the longest edge of a ring: the default grid angle. */
export function longestSideAzimuth(ring: readonly XY[]): number {
  let best = -1
  let azimuth = 0
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!
    const b = ring[(i + 1) % ring.length]!
    const length = distance(a, b)
    if (length > best) {
      best = length
      azimuth = Math.atan2(b[0] - a[0], b[1] - a[1]) / RAD
    }
  }
  return normaliseAzimuth(azimuth)
}

/** Any angle → [0, 180): a line and its reverse are the same grid. */
export function normaliseAzimuth(deg: number) {
  const a = ((deg % 180) + 180) % 180
  return a === 180 ? 0 : a
}

/** How many lines cover `width` at `spacing` (at least one). */
function lineCount(width: number, spacing: number) {
  return Math.max(1, Math.ceil(width / spacing - 1e-9))
}

/** The axes of a grid at azimuth θ: `along` the lines and `across` them. */
function axes(azimuthDeg: number) {
  const a = azimuthDeg * RAD
  const along: XY = [Math.sin(a), Math.cos(a)]
  const across: XY = [Math.cos(a), -Math.sin(a)]
  return { along, across }
}

const dot = (p: XY, v: XY) => p[0] * v[0] + p[1] * v[1]

/**
 * The inside pieces of every grid line over the rings (first ring the boundary, the rest
 * holes), line by line in order across the area. Throws RangeError past MAX_LINES_PER_AREA.
 */
export function gridSegments(
  rings: readonly (readonly XY[])[],
  azimuthDeg: number,
  spacing: number,
): Segment[][] {
  const { along, across } = axes(azimuthDeg)
  const outer = rings[0] ?? []
  if (outer.length < 3 || !(spacing > 0)) return []
  let sMin = Infinity
  let sMax = -Infinity
  for (const p of outer) {
    const s = dot(p, across)
    if (s < sMin) sMin = s
    if (s > sMax) sMax = s
  }
  const width = sMax - sMin
  const count = lineCount(width, spacing)
  if (count > MAX_LINES_PER_AREA) throw new RangeError(`The grid would need ${count} lines`)
  const first = sMin + (width - (count - 1) * spacing) / 2

  // Edges in (s, t) grid coordinates, computed once.
  const edges: Array<[number, number, number, number]> = []
  for (const ring of rings) {
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i]!
      const b = ring[(i + 1) % ring.length]!
      edges.push([dot(a, across), dot(a, along), dot(b, across), dot(b, along)])
    }
  }

  const lines: Segment[][] = []
  const crossings: number[] = []
  for (let k = 0; k < count; k++) {
    const s = first + k * spacing
    crossings.length = 0
    for (const [sa, ta, sb, tb] of edges) {
      // Half-open test: a vertex on the line counts once.
      if ((sa <= s && s < sb) || (sb <= s && s < sa)) crossings.push(ta + ((s - sa) / (sb - sa)) * (tb - ta))
    }
    crossings.sort((x, y) => x - y)
    const pieces: Segment[] = []
    for (let i = 0; i + 1 < crossings.length; i += 2) {
      const t0 = crossings[i]!
      const t1 = crossings[i + 1]!
      if (t1 - t0 < MIN_TRANSECT_M) continue
      pieces.push({ start: fromGrid(s, t0, along, across), end: fromGrid(s, t1, along, across) })
    }
    lines.push(pieces)
  }
  return lines
}

function fromGrid(s: number, t: number, along: XY, across: XY): XY {
  return [s * across[0] + t * along[0], s * across[1] + t * along[1]]
}

/** A segment lengthened by `by` metres at both ends along its own direction. */
export function extend(segment: Segment, by: number): Segment {
  const length = distance(segment.start, segment.end)
  if (!(length > 0) || by === 0) return segment
  const ux = (segment.end[0] - segment.start[0]) / length
  const uy = (segment.end[1] - segment.start[1]) / length
  return {
    start: [segment.start[0] - ux * by, segment.start[1] - uy * by],
    end: [segment.end[0] + ux * by, segment.end[1] + uy * by],
  }
}

/**
 * The flight order: start with the first piece of the first line, then always fly next
 * the piece whose (turnaround-extended) end is nearest, entering at that end. On a
 * convex area this is the classic lawn-mower (every second line reversed).
 */
export function orderSegments(lines: readonly Segment[][], turnaroundM: number): Segment[] {
  const pieces = lines.flat()
  if (pieces.length === 0) return []
  const extended = pieces.map((p) => extend(p, turnaroundM))
  const done = new Uint8Array(pieces.length)
  const order: Segment[] = [pieces[0]!]
  done[0] = 1
  let here = extended[0]!.end
  for (let n = 1; n < pieces.length; n++) {
    let best = -1
    let bestDistance = Infinity
    let reverse = false
    for (let i = 0; i < pieces.length; i++) {
      if (done[i]) continue
      const e = extended[i]!
      const toStart = distance(here, e.start)
      const toEnd = distance(here, e.end)
      if (toStart < bestDistance) {
        best = i
        bestDistance = toStart
        reverse = false
      }
      if (toEnd < bestDistance) {
        best = i
        bestDistance = toEnd
        reverse = true
      }
    }
    done[best] = 1
    const piece = pieces[best]!
    order.push(reverse ? { start: piece.end, end: piece.start } : piece)
    here = reverse ? extended[best]!.start : extended[best]!.end
  }
  return order
}

/** Length of the flown path: each transect with its turnarounds plus the legs between them. */
export function pathLength(ordered: readonly Segment[], turnaroundM: number) {
  let total = 0
  let previous: XY | null = null
  for (const segment of ordered) {
    const e = extend(segment, turnaroundM)
    if (previous) total += distance(previous, e.start)
    total += distance(e.start, e.end)
    previous = e.end
  }
  return total
}
