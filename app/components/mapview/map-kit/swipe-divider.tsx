/** The swipe's divider over a map, at `position` % from the left. */
export function SwipeDivider({ position }: { position: number }) {
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none absolute inset-y-0 z-[500] w-0.5 bg-white shadow"
      style={{ left: `${position}%` }}
    />
  )
}
