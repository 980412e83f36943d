/**
 * No source file in app/ is over 450 lines: a file that grows past it has two jobs, and is
 * split (a hook, a panel, a step of its own).
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const MAX_LINES = 450
const root = path.join(process.cwd(), 'app')

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

test(`no source file in app/ is over ${MAX_LINES} lines`, () => {
  const over = sourceFiles(root)
    .map(
      (file) =>
        [
          path.relative(process.cwd(), file).split(path.sep).join('/'),
          lineCount(fs.readFileSync(file, 'utf8')),
        ] as const,
    )
    .filter(([, lines]) => lines > MAX_LINES)
    .map(([file, lines]) => `${file}: ${lines} lines`)
  expect(over).toEqual([])
})

test('lines are counted as wc -l does, a last line without a newline included', () => {
  expect(lineCount('')).toBe(0)
  expect(lineCount('a\n')).toBe(1)
  expect(lineCount('a\nb')).toBe(2)
  expect(lineCount('a\nb\n')).toBe(2)
})
