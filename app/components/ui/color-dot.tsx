/** The round swatch of a note's or an airspace zone's map colour, drawn beside its name (decoration only). */
export function ColorDot({ color }: { color: string }) {
  return <span aria-hidden className="inline-block h-3 w-3 rounded-full" style={{ background: color }} />
}
