/**
 * scripts/system-deps.sh, the step `npm run demo` and `npm test` take for GDAL and Chromium:
 * run with a PATH of stand-ins (bash, `id`, `apt-get`), so each case is a machine with or without the programs, as root or not.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'

const SCRIPT = path.resolve('scripts/system-deps.sh')
const BASH = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim()
const folders: string[] = []
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function executable(file: string, body: string) {
  fs.writeFileSync(file, `#!${BASH}\n${body}\n`, { mode: 0o755 })
}

/** A machine: `uid` for `id -u`, `tools` on the PATH; apt-get records its calls (and installs gdal). */
function machine({
  uid,
  tools = [],
  chromium = false,
}: {
  uid: number
  tools?: string[]
  chromium?: boolean
}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'system-deps-'))
  folders.push(dir)
  const bin = path.join(dir, 'bin')
  fs.mkdirSync(bin)
  fs.symlinkSync(BASH, path.join(bin, 'bash'))
  executable(path.join(bin, 'id'), `echo ${uid}`)
  for (const tool of tools) executable(path.join(bin, tool), 'exit 0')
  const log = path.join(dir, 'apt.log')
  executable(path.join(bin, 'apt-get'), `echo "$*" >> ${log}`)
  const chromiumPath = path.join(dir, 'chromium')
  if (chromium) executable(chromiumPath, 'exit 0')
  const run = (...args: string[]) =>
    spawnSync(BASH, [SCRIPT, ...args], {
      encoding: 'utf8',
      env: { NODE_ENV: 'test', PATH: bin, CHROMIUM_PATH: chromiumPath },
    })
  const aptCalls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [])
  return { run, aptCalls }
}

const GDAL = ['gdalinfo', 'gdal_translate', 'gdalwarp', 'gdaldem']

describe('scripts/system-deps.sh', () => {
  test('with everything installed it succeeds without touching apt-get (not even update)', () => {
    const box = machine({ uid: 0, tools: GDAL, chromium: true })
    const result = box.run('gdal', 'chromium')
    expect(result.status).toBe(0)
    expect(box.aptCalls()).toEqual([])
  })

  test('as root it installs only what is missing', () => {
    const box = machine({ uid: 0, tools: GDAL.slice(0, 2), chromium: true })
    expect(box.run('gdal', 'chromium').status).toBe(0)
    expect(box.aptCalls()).toEqual(['update -qq', 'install -y -qq --no-install-recommends gdal-bin'])

    const both = machine({ uid: 0 })
    expect(both.run('gdal', 'chromium').status).toBe(0)
    expect(both.aptCalls()[1]).toBe('install -y -qq --no-install-recommends gdal-bin chromium')
  })

  test('the demo asks for GDAL only', () => {
    const box = machine({ uid: 0, tools: GDAL })
    expect(box.run('gdal').status).toBe(0)
    expect(box.aptCalls()).toEqual([])
  })

  test('without root it stops with a message naming what to install', () => {
    const box = machine({ uid: 1000, tools: ['gdalinfo'] })
    const result = box.run('gdal', 'chromium')
    expect(result.status).toBe(1)
    expect(box.aptCalls()).toEqual([])
    expect(result.stderr).toContain('apt-get install gdal-bin')
    expect(result.stderr).toContain('apt-get install chromium')
    expect(result.stderr).toContain('set CHROMIUM_PATH')
  })

  test('an unknown name is refused', () => {
    expect(machine({ uid: 0 }).run('postgres').status).toBe(2)
  })
})
