/** The Contours layer's index line labels: their words, and where along the line each goes. */
import { formatNumber } from '#app/lib/format/numbers.ts'

/** An index line's label: its height in metres, with the decimals the interval needs. */
export function contourLabel(elevationM: number, intervalM: number) {
  const indexStep = intervalM * 5
  const decimals =
    [0, 1].find((d) => Math.abs(indexStep * 10 ** d - Math.round(indexStep * 10 ** d)) < 1e-9) ?? 2
  return `${formatNumber(elevationM, decimals, { minDecimals: 0 })} m`
}

/**
 * Where along its line an index line's label goes (0–1 of its length): neighbouring index
 * levels a quarter turn apart, so the labels of close rings do not stack on each other.
 */
export function labelFraction(elevationM: number, intervalM: number) {
  const level = Math.round(elevationM / (intervalM * 5))
  return (((level * 0.25) % 1) + 1) % 1
}

const legsOf = (line: number[][]) =>
  line.slice(1).map((p, i) => Math.hypot(p[0]! - line[i]![0]!, p[1]! - line[i]![1]!))

/** A line's planar length (in its own units): the longer lines' labels are shown first. */
export const lineLength = (line: number[][]) => legsOf(line).reduce((a, b) => a + b, 0)

/** The point `fraction` of the way along a line of [lng, lat] positions (planar: a label's place). */
export function pointAlong(line: number[][], fraction: number): [number, number] {
  const legs = legsOf(line)
  let left = legs.reduce((a, b) => a + b, 0) * fraction
  for (const [i, leg] of legs.entries()) {
    if (left <= leg && leg > 0) {
      const [a, b] = [line[i]!, line[i + 1]!]
      return [a[0]! + ((b[0]! - a[0]!) * left) / leg, a[1]! + ((b[1]! - a[1]!) * left) / leg]
    }
    left -= leg
  }
  const last = line.at(-1)!
  return [last[0]!, last[1]!]
}

type Box = { left: number; top: number; right: number; bottom: number }

/** Which labels to show: each in turn unless it overlaps one already shown (a small gap kept). */
export function unclutteredLabels(boxes: Box[], gapPx = 2): boolean[] {
  const shown: Box[] = []
  return boxes.map((box) => {
    const overlaps = shown.some(
      (s) =>
        box.left < s.right + gapPx &&
        box.right + gapPx > s.left &&
        box.top < s.bottom + gapPx &&
        box.bottom + gapPx > s.top,
    )
    if (!overlaps) shown.push(box)
    return !overlaps
  })
}
