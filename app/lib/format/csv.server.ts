/**
 * Every CSV the app writes goes through here: csv-stringify does the quoting, and a text field
 * that starts a spreadsheet formula (=, +, -, @, tab, CR, or their full-width forms) gets a
 * leading apostrophe, so `=HYPERLINK(…)` in a name is shown, never run. Numbers stay numbers
 * (a negative volume is not a formula). A CSV another tool writes (ogr2ogr) takes its text
 * fields through `escapeFormula` first. (One CSV is written in the browser: a terrain profile's,
 * numbers only, from the points its chart draws — `mapview/profile-chart.ts`.)
 */
import { Readable } from 'node:stream'
import { stringify as stringifyStream } from 'csv-stringify'
import { stringify } from 'csv-stringify/sync'

type Column = string | { key: string; header: string }
type Cell = string | number | boolean | null | undefined

const OPTIONS = { header: true, escape_formulas: true } as const

/** A whole (small) CSV: a header line, then a line per row. */
export function csvText(columns: Column[], rows: Cell[][] | Record<string, Cell>[], { bom = false } = {}) {
  return stringify(rows, { ...OPTIONS, columns, bom })
}

/** A CSV streamed from rows as they come (back-pressure: the next row is read when there is room). */
export function csvStream(
  columns: Column[],
  rows: AsyncIterable<Record<string, Cell>>,
  { bom = false } = {},
): ReadableStream<Uint8Array> {
  const stringifier = stringifyStream({ ...OPTIONS, columns, bom })
  void (async () => {
    try {
      for await (const row of rows)
        if (!stringifier.write(row)) await new Promise((r) => stringifier.once('drain', r))
      stringifier.end()
    } catch (error) {
      stringifier.destroy(error as Error)
    }
  })()
  return Readable.toWeb(stringifier) as unknown as ReadableStream<Uint8Array>
}

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/

/** A text field as csv-stringify writes it with formulas escaped: for a CSV another tool writes. */
export function escapeFormula(text: string) {
  return FORMULA_START.test(text) ? `'${text}` : text
}
