/**
 * The union of axis-parallel boxes as disjoint boxes, in O((n + k) log n) for n boxes and
 * k changes of the union's outline. A sweep along v: the boxes spanning the sweep
 * line are counted per elementary u-interval in a segment tree; a covered stretch across
 * (a "component") is a run of elementary intervals with a count above zero. At each box
 * edge only the components the edge touches are closed (emitted as a box from where they
 * began) and reopened as they now are; untouched stretches go on growing. The earlier
 * sweep rescanned every active box on every edge (n × active: quadratic when photos are
 * dense).
 */

/** An axis-parallel box: u across the flight line, v along it (metres). */
export interface Box {
  u0: number
  u1: number
  v0: number
  v1: number
}

/**
 * Counts over elementary intervals 0..size-1 with range add and searches for the nearest
 * zero / non-zero count. Tags are not pushed down: a node's min/max include its own tag.
 */
class CoverCounts {
  private readonly lowest: Float64Array
  private readonly highest: Float64Array
  private readonly tag: Float64Array

  constructor(readonly size: number) {
    this.lowest = new Float64Array(4 * size)
    this.highest = new Float64Array(4 * size)
    this.tag = new Float64Array(4 * size)
  }

  add(from: number, to: number, delta: number, node = 1, lo = 0, hi = this.size - 1) {
    if (to < lo || hi < from) return
    if (from <= lo && hi <= to) {
      this.tag[node]! += delta
      this.lowest[node]! += delta
      this.highest[node]! += delta
      return
    }
    const mid = (lo + hi) >> 1
    this.add(from, to, delta, 2 * node, lo, mid)
    this.add(from, to, delta, 2 * node + 1, mid + 1, hi)
    this.lowest[node] = this.tag[node]! + Math.min(this.lowest[2 * node]!, this.lowest[2 * node + 1]!)
    this.highest[node] = this.tag[node]! + Math.max(this.highest[2 * node]!, this.highest[2 * node + 1]!)
  }

  /** The smallest count in from..to. */
  min(from: number, to: number, node = 1, lo = 0, hi = this.size - 1): number {
    if (to < lo || hi < from) return Infinity
    if (from <= lo && hi <= to) return this.lowest[node]!
    const mid = (lo + hi) >> 1
    return (
      this.tag[node]! +
      Math.min(this.min(from, to, 2 * node, lo, mid), this.min(from, to, 2 * node + 1, mid + 1, hi))
    )
  }

  /** The last index ≤ `to` with a zero count, or -1. */
  lastZeroUpTo(to: number, node = 1, lo = 0, hi = this.size - 1, above = 0): number {
    if (lo > to || above + this.lowest[node]! > 0) return -1
    if (lo === hi) return lo
    const mid = (lo + hi) >> 1
    const inner = above + this.tag[node]!
    const right = this.lastZeroUpTo(to, 2 * node + 1, mid + 1, hi, inner)
    return right >= 0 ? right : this.lastZeroUpTo(to, 2 * node, lo, mid, inner)
  }

  /** The first index ≥ `from` with a zero count, or `size`. */
  firstZeroFrom(from: number, node = 1, lo = 0, hi = this.size - 1, above = 0): number {
    if (hi < from || above + this.lowest[node]! > 0) return this.size
    if (lo === hi) return lo
    const mid = (lo + hi) >> 1
    const inner = above + this.tag[node]!
    const left = this.firstZeroFrom(from, 2 * node, lo, mid, inner)
    return left < this.size ? left : this.firstZeroFrom(from, 2 * node + 1, mid + 1, hi, inner)
  }

  /** The first index in from..to with a count above zero, or -1. */
  firstCovered(from: number, to: number, node = 1, lo = 0, hi = this.size - 1, above = 0): number {
    if (hi < from || lo > to || above + this.highest[node]! <= 0) return -1
    if (lo === hi) return lo
    const mid = (lo + hi) >> 1
    const inner = above + this.tag[node]!
    const left = this.firstCovered(from, to, 2 * node, lo, mid, inner)
    return left >= 0 ? left : this.firstCovered(from, to, 2 * node + 1, mid + 1, hi, inner)
  }
}

/** First index of `sorted` holding `value` (it is there). */
function indexOf(sorted: Float64Array, value: number) {
  let lo = 0
  let hi = sorted.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The union of the boxes as disjoint boxes (empty boxes are ignored). */
export function unionOfBoxes(boxes: readonly Box[]): Box[] {
  const solid = boxes.filter((b) => b.u1 > b.u0 && b.v1 > b.v0)
  if (!solid.length) return []
  const us = Float64Array.from(new Set(solid.flatMap((b) => [b.u0, b.u1]))).sort()
  const counts = new CoverCounts(us.length - 1)
  // Elementary intervals first..last (inclusive) of each box.
  const spans = solid.map((b) => [indexOf(us, b.u0), indexOf(us, b.u1) - 1] as const)
  const starts = solid.map((_, i) => i).sort((a, b) => solid[a]!.v0 - solid[b]!.v0)
  const ends = solid.map((_, i) => i).sort((a, b) => solid[a]!.v1 - solid[b]!.v1)
  /** Open components by first elementary interval: last interval and where along v it began. */
  const open = new Map<number, { last: number; v0: number }>()
  const out: Box[] = []

  /** The components that overlap first..last, each as [first, last]. */
  const componentsIn = (first: number, last: number) => {
    const found: Array<[number, number]> = []
    let at = first
    while (at <= last) {
      const covered = counts.firstCovered(at, last)
      if (covered < 0) break
      const start = counts.lastZeroUpTo(covered) + 1
      const end = counts.firstZeroFrom(covered) - 1
      found.push([start, end])
      at = end + 2
    }
    return found
  }

  /** One box's edge: only a change of what is covered closes and reopens the stretches it touches. */
  const apply = (index: number, delta: 1 | -1, v: number) => {
    const [first, last] = spans[index]!
    // A box over ground already covered (or ending over ground still covered): nothing changes.
    if (counts.min(first, last) > (delta > 0 ? 0 : 1)) {
      counts.add(first, last, delta)
      return
    }
    // Neighbours one interval out too: a new box can join the stretches on either side.
    const from = Math.max(0, first - 1)
    const to = Math.min(counts.size - 1, last + 1)
    const closed = new Map<number, { last: number; v0: number }>()
    for (const [start] of componentsIn(from, to)) {
      closed.set(start, open.get(start)!)
      open.delete(start)
    }
    counts.add(first, last, delta)
    for (const [start, end] of componentsIn(from, to)) {
      const before = closed.get(start)
      if (before && before.last === end) {
        // Unchanged by this edge: it goes on as one box.
        closed.delete(start)
        open.set(start, before)
      } else open.set(start, { last: end, v0: v })
    }
    for (const [start, component] of closed) {
      if (v > component.v0) out.push({ u0: us[start]!, u1: us[component.last + 1]!, v0: component.v0, v1: v })
    }
  }

  let s = 0
  let e = 0
  while (e < ends.length) {
    const v = Math.min(s < starts.length ? solid[starts[s]!]!.v0 : Infinity, solid[ends[e]!]!.v1)
    while (s < starts.length && solid[starts[s]!]!.v0 === v) apply(starts[s++]!, 1, v)
    while (e < ends.length && solid[ends[e]!]!.v1 === v) apply(ends[e++]!, -1, v)
  }
  return out
}
