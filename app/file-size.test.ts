/**
 * No source file in app/ is over 450 lines: a file that grows past it has two jobs, and is
 * split (a hook, a panel, a step of its own). The files over the limit today are listed with
 * their length; the test fails if one grows past it, and once one is split under the limit
 * its entry goes (the list only shrinks).
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const MAX_LINES = 450
const root = path.join(process.cwd(), 'app')

/** Over the limit, each with its length today: to split, never to grow. */
const OVER_THE_LIMIT: Record<string, number> = {
  'app/components/mapview/deliverables-map.client.tsx': 526,
  'app/components/mapview/map-notes-layer.client.tsx': 553,
  'app/components/threed/three-d-view.client.tsx': 536,
  'app/domain/flight-plan/flight-plan.ts': 467,
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return /\.(ts|tsx|js|jsx|mjs|cjs)$/.test(entry.name) ? [file] : []
  })
}

/** Lines as `wc -l` counts them, plus a last line without a newline. */
function lineCount(text: string) {
  const newlines = text.split('\n').length - 1
  return text.length > 0 && !text.endsWith('\n') ? newlines + 1 : newlines
}

test(`no source file in app/ is over ${MAX_LINES} lines, and none of the listed ones grew`, () => {
  const lengths = Object.fromEntries(
    sourceFiles(root).map((file) => [
      path.relative(process.cwd(), file).split(path.sep).join('/'),
      lineCount(fs.readFileSync(file, 'utf8')),
    ]),
  )
  const over = Object.entries(lengths).filter(([, lines]) => lines > MAX_LINES)
  // A new file over the limit, or a listed one longer than it was.
  expect(over.filter(([file, lines]) => lines > (OVER_THE_LIMIT[file] ?? MAX_LINES))).toEqual([])
  // A listed file that is now within the limit (or gone) leaves the list.
  const stale = Object.entries(OVER_THE_LIMIT).filter(
    ([file]) => lengths[file] === undefined || lengths[file] <= MAX_LINES,
  )
  expect(
    stale.map(([file, allowed]) => `${file}: listed at ${allowed}, now ${lengths[file] ?? 'gone'}`),
  ).toEqual([])
})

test('lines are counted as wc -l does, a last line without a newline included', () => {
  expect(lineCount('')).toBe(0)
  expect(lineCount('a\n')).toBe(1)
  expect(lineCount('a\nb')).toBe(2)
  expect(lineCount('a\nb\n')).toBe(2)
})
