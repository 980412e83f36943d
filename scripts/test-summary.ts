/**
 * Prints how long each stage took (reports/stages.json, from scripts/run-tests.ts), the ten
 * slowest journeys and every unit test or journey over its budget, then one closing line for
 * the whole suite ("N passed, N failed") from the JSON reports vitest and Playwright write, so
 * CI logs end with a single clear verdict. A stage that failed without a test report of its
 * own (typecheck, lint, build) counts as one failure. Every time read is also written to
 * reports/timings.json.
 */
import fs from 'node:fs'

import {
  journeyTimes,
  overBudget,
  seconds,
  unitTimes,
  type PlaywrightReport,
  type VitestReport,
} from './test-timings.ts'

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
const journeys = journeyTimes(playwright as PlaywrightReport | null)
const unit = unitTimes(vitest as VitestReport | null)
const warnings = overBudget(unit.tests, journeys)
fs.mkdirSync('reports', { recursive: true })
fs.writeFileSync(
  'reports/timings.json',
  JSON.stringify(
    { stages: stages?.stages ?? [], journeys, unitFiles: unit.files, unitTests: unit.tests },
    null,
    2,
  ),
)
if (journeys.length > 0) {
  console.log(`\nThe ten slowest journeys (of ${journeys.length}; all in reports/timings.json):`)
  for (const journey of journeys.slice(0, 10))
    console.log(`  ${seconds(journey.seconds).padStart(8)}  ${journey.name}`)
}
if (warnings.length > 0) {
  console.log(`\nWarnings (${warnings.length}): over the time budget`)
  for (const warning of warnings) console.log(`  ${warning}`)
}
console.log(
  `\nunit + route tests: ${vitest ? 'reported' : 'missing'}; end-to-end journeys: ${playwright ? 'reported' : 'missing'}`,
)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
if (!vitest || !playwright || failed > 0 || passed === 0) process.exitCode = 1
