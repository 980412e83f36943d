/** Figures with their labels: side by side in a grid, or one a row (label left, value right). */
const LAYOUTS = {
  grid: { list: 'grid grid-cols-2 gap-2 text-sm sm:grid-cols-4', row: undefined, value: 'font-semibold' },
  rows: { list: 'space-y-1 text-sm', row: 'flex justify-between', value: 'tabular-nums text-ink-900' },
} as const

/** `rows`: label, value and the test id each value is read by. */
export function FigureList({
  rows,
  layout,
  className = '',
}: {
  rows: ReadonlyArray<readonly [string, string, string]>
  layout: keyof typeof LAYOUTS
  className?: string
}) {
  const style = LAYOUTS[layout]
  return (
    <dl className={`${style.list} ${className}`.trim()}>
      {rows.map(([label, value, testId]) => (
        <div key={label} className={style.row}>
          <dt className="text-ink-600">{label}</dt>
          <dd className={style.value} data-testid={testId}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  )
}
