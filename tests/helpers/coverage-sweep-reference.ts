/**
 * The coverage engine as it was before the interval-tree sweep replaced
 * it: kept only as the oracle the unit tests compare the new engine with.
 * The footprints, clipping and areas are the engine's own; only the union is the old sweep.
 */
import type { Box } from '#app/domain/coverage/box-union.ts'
import { coverageWithUnion, type CoverageInput } from '#app/domain/coverage/coverage.ts'

/**
 * The union of axis-parallel boxes as disjoint boxes: a sweep along v over every box
 * edge; between two edges the covered stretches across are the merged u-intervals of the
 * boxes spanning that slab. Slabs with the same stretches as the one below extend it.
 */
function unionBySweep(boxes: readonly Box[]): Box[] {
  if (!boxes.length) return []
  const edges = [...new Set(boxes.flatMap((b) => [b.v0, b.v1]))].sort((a, b) => a - b)
  const byStart = [...boxes].sort((a, b) => a.v0 - b.v0)
  let next = 0
  let active: Box[] = []
  let previous: Box[] = []
  const out: Box[] = []
  for (let k = 0; k < edges.length - 1; k++) {
    const v0 = edges[k]!
    const v1 = edges[k + 1]!
    // `active` stays sorted by u0: each new box goes in at its place, ended boxes drop out.
    while (next < byStart.length && byStart[next]!.v0 <= v0) {
      const box = byStart[next++]!
      let lo = 0
      let hi = active.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (active[mid]!.u0 < box.u0) lo = mid + 1
        else hi = mid
      }
      active.splice(lo, 0, box)
    }
    active = active.filter((b) => b.v1 > v0)
    const merged: Array<[number, number]> = []
    for (const { u0, u1 } of active) {
      const last = merged[merged.length - 1]
      if (last && u0 <= last[1]) last[1] = Math.max(last[1], u1)
      else merged.push([u0, u1])
    }
    if (
      previous.length === merged.length &&
      previous.every((b, i) => b.v1 === v0 && b.u0 === merged[i]![0] && b.u1 === merged[i]![1])
    ) {
      for (const b of previous) b.v1 = v1
      continue
    }
    previous = merged.map(([u0, u1]) => ({ u0, u1, v0, v1 }))
    out.push(...previous)
  }
  return out
}

/** Coverage of each area by the photos' footprints, with the union found by the old sweep. */
export function computeCoverageBySweep(input: CoverageInput) {
  return coverageWithUnion(input, unionBySweep)
}
