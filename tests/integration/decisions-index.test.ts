/**
 * docs/decisions/README.md lists every ADR once, with the date it was added: a record
 * missing from the index (or a line for a record that is gone) fails here.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

const dir = path.join(process.cwd(), 'docs/decisions')
const adrFiles = fs
  .readdirSync(dir)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .sort()
const index = fs.readFileSync(path.join(dir, 'README.md'), 'utf8')
/** `| [245](245-name.md) | Decision | 2026-11-24 |` → file and date. */
const rows = [
  ...index.matchAll(/^\| \[(\d{3})\]\((\d{3}-[^)]+\.md)\) \| .+ \| (\d{4}-\d{2}-\d{2}) \|$/gm),
].map(([, number, file, date]) => ({ number, file, date }))

/** The date git first added each ADR (`git log --diff-filter=A`), or null without full history. */
function addedDates(): Map<string, string> | null {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: process.cwd(), encoding: 'utf8' })
    if (git('rev-parse', '--is-shallow-repository').trim() !== 'false') return null
    const log = git(
      'log',
      '--diff-filter=A',
      '--format=@%ad',
      '--date=short',
      '--name-only',
      '--',
      'docs/decisions',
    )
    const dates = new Map<string, string>()
    let date = ''
    for (const line of log.split('\n')) {
      if (line.startsWith('@')) date = line.slice(1)
      else if (line.trim()) dates.set(path.basename(line.trim()), date) // oldest (last) wins
    }
    return dates
  } catch {
    return null
  }
}

describe('the ADR index', () => {
  test('has one line per ADR file, each linking its own number', () => {
    expect(rows.map((r) => r.file).sort()).toEqual(adrFiles)
    for (const row of rows) expect(row.file.startsWith(`${row.number}-`)).toBe(true)
  })

  test("each line's date is the day the ADR was added to the repository", () => {
    const dates = addedDates()
    if (!dates) return // a shallow clone cannot tell
    for (const row of rows) {
      const added = dates.get(row.file)
      // An ADR not committed yet has no date in git: nothing to compare.
      if (added) expect(`${row.file} ${row.date}`).toBe(`${row.file} ${added}`)
    }
  })
})

/** Every tracked file outside docs/decisions that may cite a record. */
function citingFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: process.cwd(), encoding: 'utf8' })
  return out
    .split('\0')
    .filter((file) => file && !file.startsWith('node_modules/'))
    .filter((file) => /\.(ts|tsx|js|mjs|jsonc|md|ya?ml|toml|sh)$/.test(file))
}

test('every ADR a comment or document cites is a record in docs/decisions', () => {
  const numbers = new Set(adrFiles.map((file) => file.slice(0, 3)))
  const dangling: string[] = []
  for (const file of citingFiles()) {
    const full = path.join(process.cwd(), file)
    if (!fs.existsSync(full)) continue
    const text = fs.readFileSync(full, 'utf8')
    for (const match of text.matchAll(/ADRs? (\d{3}(?:(?:[–-]|, | and )\d{3})*)/g)) {
      const cited = match[1]!.match(/\d{3}/g)!
      for (const number of cited) if (!numbers.has(number)) dangling.push(`${file}: ADR ${number}`)
    }
  }
  expect(dangling).toEqual([])
})
