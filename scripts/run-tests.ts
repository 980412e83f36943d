/**
 * `npm test`: every stage of the suite, timed. Stages in one step run side by side (each
 * mostly uses one core: tsc, ESLint, Prettier, knip, the build), their output printed
 * whole when each ends; the unit tests and the journeys then use every core on their own.
 * A failing stage fails the run but the tests still run (a failed build skips the journeys). The times go to reports/stages.json, which
 * scripts/test-summary.ts prints above the closing "N passed, N failed" line.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'

interface Stage {
  name: string
  command: string
}

const STEPS: Stage[][] = [
  // GDAL and Chromium: installed where it can be, otherwise a message says what to install.
  [{ name: 'system', command: 'bash scripts/system-deps.sh gdal chromium' }],
  [{ name: 'data', command: 'npm run build:data' }],
  [
    { name: 'typecheck', command: 'npm run typecheck' },
    { name: 'lint', command: 'npm run lint' },
    { name: 'build', command: 'npm run build:app' },
  ],
  [{ name: 'unit', command: 'npm run test:unit' }],
  [{ name: 'e2e', command: 'npm run test:e2e' }],
]

interface StageResult {
  name: string
  seconds: number
  ok: boolean
}

function run(stage: Stage, alone: boolean): Promise<StageResult> {
  const began = Date.now()
  return new Promise((resolve) => {
    // Alone, a stage streams its output (the journeys take minutes); side by side, each
    // stage's output is kept and printed in one piece so the logs don't interleave.
    const child = spawn(stage.command, {
      shell: true,
      stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    })
    let output = ''
    child.stdout?.on('data', (d) => (output += d))
    child.stderr?.on('data', (d) => (output += d))
    child.on('close', (code) => {
      const result = { name: stage.name, seconds: (Date.now() - began) / 1000, ok: code === 0 }
      if (!alone) process.stdout.write(`\n── ${stage.name} ──\n${output}`)
      console.log(`── ${stage.name}: ${result.ok ? 'ok' : 'FAILED'} in ${result.seconds.toFixed(1)} s ──`)
      resolve(result)
    })
  })
}

fs.rmSync('reports', { recursive: true, force: true })
fs.mkdirSync('reports', { recursive: true })
const results: StageResult[] = []
const began = Date.now()
for (const step of STEPS) {
  console.log(`\n── ${step.map((s) => s.name).join(' + ')} ──`)
  results.push(...(await Promise.all(step.map((stage) => run(stage, step.length === 1)))))
  fs.writeFileSync(
    'reports/stages.json',
    JSON.stringify({ totalSeconds: (Date.now() - began) / 1000, stages: results }, null, 2),
  )
  // Without the system programs or a build the tests cannot run; any other failure still lets
  // the tests run, so one run shows everything that is wrong.
  if (results.some((r) => !r.ok && ['system', 'data', 'build'].includes(r.name))) break
}

const summary = spawn('npx tsx scripts/test-summary.ts', { shell: true, stdio: 'inherit' })
summary.on('close', (code) => {
  process.exitCode = code ?? 1
})
