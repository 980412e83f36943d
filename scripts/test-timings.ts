/**
 * Where the suite's time goes, read from the JSON reports vitest and Playwright write
 * (reports/vitest.json, reports/playwright.json): every journey's time (its attempts added
 * up), every unit test file's and test's, and the ones over their budget. scripts/test-summary.ts
 * prints them and writes them to reports/timings.json, which CI keeps with the reports.
 */

/** A unit test over this many seconds, or a journey over JOURNEY_BUDGET_S, is named as a warning. */
export const UNIT_BUDGET_S = 5
export const JOURNEY_BUDGET_S = 60

export interface Timed {
  /** What it is: `[project] file:line › title` for a journey, `file › test` for a unit test. */
  name: string
  seconds: number
}

interface PlaywrightResult {
  duration: number
}
interface PlaywrightSpec {
  title: string
  file: string
  line: number
  tests: { projectName: string; results: PlaywrightResult[] }[]
}
interface PlaywrightSuite {
  title: string
  specs?: PlaywrightSpec[]
  suites?: PlaywrightSuite[]
}
export interface PlaywrightReport {
  suites?: PlaywrightSuite[]
}

/** Every journey (one per project it ran in), with the time of all its attempts, slowest first. */
export function journeyTimes(report: PlaywrightReport | null): Timed[] {
  const found: Timed[] = []
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? [])
      for (const run of spec.tests)
        found.push({
          name: `[${run.projectName}] ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`,
          seconds: run.results.reduce((sum, result) => sum + result.duration, 0) / 1000,
        })
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title])
  }
  // The top suites are the files, named already by each spec's file.
  for (const file of report?.suites ?? []) walk(file, [])
  return slowestFirst(found)
}

interface VitestFile {
  name: string
  startTime: number
  endTime: number
  assertionResults: { fullName: string; duration?: number | null }[]
}
export interface VitestReport {
  testResults?: VitestFile[]
}

/** Every unit test file (from its start to its end, imports included) and every test, slowest first. */
export function unitTimes(
  report: VitestReport | null,
  root = process.cwd(),
): { files: Timed[]; tests: Timed[] } {
  const files: Timed[] = []
  const tests: Timed[] = []
  for (const file of report?.testResults ?? []) {
    const name = file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name
    files.push({ name, seconds: (file.endTime - file.startTime) / 1000 })
    for (const test of file.assertionResults)
      tests.push({ name: `${name} › ${test.fullName}`, seconds: (test.duration ?? 0) / 1000 })
  }
  return { files: slowestFirst(files), tests: slowestFirst(tests) }
}

/** What is over budget: unit tests over UNIT_BUDGET_S, journeys over JOURNEY_BUDGET_S. */
export function overBudget(unitTests: Timed[], journeys: Timed[]): string[] {
  return [
    ...unitTests
      .filter((test) => test.seconds > UNIT_BUDGET_S)
      .map((test) => `unit test over ${UNIT_BUDGET_S} s: ${seconds(test.seconds)} ${test.name}`),
    ...journeys
      .filter((journey) => journey.seconds > JOURNEY_BUDGET_S)
      .map((journey) => `journey over ${JOURNEY_BUDGET_S} s: ${seconds(journey.seconds)} ${journey.name}`),
  ]
}

export function seconds(value: number) {
  return `${value.toFixed(1)} s`
}

function slowestFirst(list: Timed[]) {
  return list.sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name))
}
