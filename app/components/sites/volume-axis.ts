/**
 * The volume axis of a stockpile chart: a round step (1, 2 or 5 × 10ⁿ, about four ticks)
 * over the series and zero, with as many decimals as the step needs, so no two ticks read
 * the same ("0 | 1 | 1" for a series under 2 m³).
 */
export type VolumeAxis = { low: number; high: number; ticks: Array<{ value: number; decimals: number }> }

function niceStep(range: number) {
  const rough = range / 4
  const power = 10 ** Math.floor(Math.log10(rough))
  const scaled = rough / power
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power
}

export function volumeAxis(values: number[]): VolumeAxis {
  const finite = values.filter(Number.isFinite)
  const min = Math.min(0, ...finite)
  const highest = Math.max(0, ...finite)
  // A series of zeros still gets an axis up to 1 m³.
  const max = highest > min ? highest : min + 1
  const step = niceStep(max - min)
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9))
  const first = Math.floor(min / step + 1e-9)
  const last = Math.ceil(max / step - 1e-9)
  const ticks = Array.from({ length: last - first + 1 }, (_, i) => ({
    value: Number(((first + i) * step).toFixed(decimals)),
    decimals,
  }))
  return { low: ticks[0]!.value, high: ticks[ticks.length - 1]!.value, ticks }
}
