/**
 * Prints one closing line for the whole suite ("N passed, N failed") from the JSON
 * reports vitest and Playwright write, so CI logs end with a single clear verdict.
 */
import fs from 'node:fs'

function read(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

let passed = 0
let failed = 0
let skipped = 0

const vitest = read('reports/vitest.json') as {
  numPassedTests?: number
  numFailedTests?: number
  numPendingTests?: number
} | null
if (vitest) {
  passed += vitest.numPassedTests ?? 0
  failed += vitest.numFailedTests ?? 0
  skipped += vitest.numPendingTests ?? 0
}
const playwright = read('reports/playwright.json') as {
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number }
} | null
if (playwright?.stats) {
  passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0)
  failed += playwright.stats.unexpected ?? 0
  skipped += playwright.stats.skipped ?? 0
}
console.log(
  `\nunit + route tests: ${vitest ? 'reported' : 'missing'}; end-to-end journeys: ${playwright ? 'reported' : 'missing'}`,
)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
if (!vitest || !playwright || failed > 0 || passed === 0) process.exitCode = 1
