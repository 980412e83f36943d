/**
 * One CSV writer (`csv.server.ts`): csv-stringify is imported by it alone, and no module that
 * serves or links a CSV joins one by hand, so every CSV we write escapes formula starts the same way.
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const root = path.join(process.cwd(), 'app')
const HELPER = 'app/lib/format/csv.server.ts'

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : []
  })
}

const sources = sourceFiles(root).map((file) => ({
  name: path.relative(process.cwd(), file).split(path.sep).join('/'),
  text: fs.readFileSync(file, 'utf8'),
}))

test('csv-stringify is used by the CSV helper only', () => {
  const others = sources.filter((s) => s.name !== HELPER && /from ['"]csv-stringify/.test(s.text))
  expect(others.map((s) => s.name)).toEqual([])
})

test('no module that serves or links a CSV writes its lines by hand', () => {
  const byHand = sources.filter(
    (s) =>
      s.name !== HELPER &&
      s.text.includes('text/csv') &&
      (/\.join\((['"`])[,;]\1\)/.test(s.text) || /['"`]\w+(?:,\w+)+(?:\\n)?['"`]/.test(s.text)),
  )
  expect(byHand.map((s) => s.name)).toEqual([])
})
