/**
 * Prints how long each stage took (reports/stages.json, from scripts/run-tests.ts), then
 * one closing line for the whole suite ("N passed, N failed") from the JSON reports vitest
 * and Playwright write, so CI logs end with a single clear verdict. A stage that failed
 * without a test report of its own (typecheck, lint, build) counts as one failure.
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
const stages = read('reports/stages.json') as {
  totalSeconds: number
  stages: { name: string; seconds: number; ok: boolean }[]
} | null
if (stages) {
  const minutes = (seconds: number) =>
    `${Math.floor(seconds / 60)} min ${String(Math.round(seconds % 60)).padStart(2, '0')} s`
  console.log('\nStage times (typecheck, lint and build run side by side):')
  for (const stage of stages.stages) {
    console.log(
      `  ${stage.name.padEnd(10)} ${minutes(stage.seconds).padStart(12)}${stage.ok ? '' : '  FAILED'}`,
    )
  }
  console.log(`  ${'total'.padEnd(10)} ${minutes(stages.totalSeconds).padStart(12)}`)
  // A test stage's failed tests are counted from its report; a test stage that failed with none
  // (an unhandled error after a test, a global set-up that threw) still counts as one failure.
  const failedTestsOf: Record<string, number> = {
    unit: vitest?.numFailedTests ?? 0,
    e2e: playwright?.stats?.unexpected ?? 0,
  }
  for (const stage of stages.stages.filter((s) => !s.ok && !failedTestsOf[s.name])) {
    if (stage.name in failedTestsOf)
      console.log(`  ${stage.name} failed outside any test: see its output above`)
    failed += 1
  }
}
console.log(
  `\nunit + route tests: ${vitest ? 'reported' : 'missing'}; end-to-end journeys: ${playwright ? 'reported' : 'missing'}`,
)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
if (!vitest || !playwright || failed > 0 || passed === 0) process.exitCode = 1
