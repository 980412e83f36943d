/**
 * The one GDAL pool: an account's share and its 429, conversions never taking the last slot,
 * a stopped request killing its child, the time limit, and a child that dies with its parent
 * even when the parent is killed with SIGKILL. `sleep` stands in for a long GDAL run.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { parentDeathPrefix } from '#app/lib/process/parent-death.server.ts'
import { childrenNamed, isGone } from '#tests/helpers/processes.ts'
import { afterEach, describe, expect, test } from 'vitest'

import { GDAL_BUSY_MESSAGE, gdalPoolState, runGdal, runGdalWithInput } from './gdal.server.ts'

async function until(check: () => boolean, timeoutMs = 10_000) {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}

const controllers: AbortController[] = []
afterEach(async () => {
  for (const c of controllers.splice(0)) c.abort()
  await until(() => gdalPoolState().running === 0 && gdalPoolState().waiting === 0)
})

function sleepFor(owner: { accountId: number } | 'conversion', seconds = 30) {
  const controller = new AbortController()
  controllers.push(controller)
  const done = runGdal('sleep', [String(seconds)], { owner, signal: controller.signal, timeoutMs: 60_000 })
  done.catch(() => {})
  return { controller, done }
}

describe('the GDAL pool', () => {
  test('an account runs two children at once, queues four, and is refused (429) past that; others still run', async () => {
    const runs = Array.from({ length: 10 }, () => sleepFor({ accountId: 7001 }))
    const refused = await Promise.allSettled(runs.slice(6).map((r) => r.done))
    for (const result of refused) {
      expect(result.status).toBe('rejected')
      const error = (result as PromiseRejectedResult).reason as DomainError
      expect(error).toBeInstanceOf(DomainError)
      expect(error.status).toBe(429)
      expect(error.message).toBe(GDAL_BUSY_MESSAGE)
      expect(error.headers['Retry-After']).toBe('30')
    }
    await until(() => childrenNamed(process.pid, 'sleep').length === 2)
    expect(gdalPoolState()).toMatchObject({ running: 2, waiting: 4 })

    // A stopped request stops its child: the next waiting one takes the slot.
    const [first] = childrenNamed(process.pid, 'sleep')
    runs[0]!.controller.abort()
    await expect(runs[0]!.done).rejects.toMatchObject({ aborted: true })
    await until(() => isGone(first!))
    await until(() => gdalPoolState().waiting === 3)
    // A waiting request that stops leaves the queue without ever starting a child.
    runs[5]!.controller.abort()
    await expect(runs[5]!.done).rejects.toMatchObject({ aborted: true })
    expect(gdalPoolState()).toMatchObject({ running: 2, waiting: 2 })
  })

  test('conversions never take the last slot: a request runs beside a long conversion', async () => {
    const { size } = gdalPoolState()
    for (let i = 0; i < size; i++) sleepFor('conversion')
    await until(() => gdalPoolState().running === size - 1)
    expect(gdalPoolState()).toMatchObject({ conversions: size - 1, waiting: 1 })
    const measure = runGdal('echo', ['measured'], { owner: { accountId: 7002 } })
    expect(await measure).toBe('measured\n')
  })

  test('a child past its time limit is killed and says so; stdin reaches the tool', async () => {
    await expect(
      runGdal('sleep', ['20'], { owner: { accountId: 7003 }, timeoutMs: 1000 }),
    ).rejects.toMatchObject({ message: 'sleep: took longer than 1 s and was stopped' })
    await until(() => childrenNamed(process.pid, 'sleep').length === 0)
    expect(await runGdal('cat', [], { owner: { accountId: 7003 }, input: '18.9 -33.9\n' })).toBe(
      '18.9 -33.9\n',
    )
  })

  test('a fed run builds its input only once it holds a slot, streams it to stdin, and fails with the tool', async () => {
    const runs = [sleepFor({ accountId: 7004 }), sleepFor({ accountId: 7004 })]
    await until(() => childrenNamed(process.pid, 'sleep').length === 2)
    let built = 0
    const out = path.join(process.cwd(), `.fed-${process.pid}.txt`)
    const fed = runGdalWithInput('sh', ['-c', `cat > ${out}`], { owner: { accountId: 7004 } }, function* () {
      for (let i = 0; i < 10_000; i++) {
        built++
        yield `line ${i}\n`
      }
    })
    await until(() => gdalPoolState().waiting === 1)
    // Waiting for the pool: nothing of its input is made yet.
    expect(built).toBe(0)
    runs[0]!.controller.abort()
    await fed
    expect(built).toBe(10_000)
    expect(fs.readFileSync(out, 'utf8').split('\n')).toHaveLength(10_001)
    fs.rmSync(out)
    await expect(
      runGdalWithInput('sh', ['-c', 'echo "no such layer" >&2; exit 1'], { owner: 'conversion' }, () => [
        'x\n',
      ]),
    ).rejects.toMatchObject({ name: 'GdalError', message: 'sh: no such layer' })
  })

  test('a tool that is not installed is a plain GdalError', async () => {
    await expect(runGdal('gdal_not_a_tool', [], { owner: 'conversion' })).rejects.toMatchObject({
      name: 'GdalError',
      message: 'gdal_not_a_tool: GDAL is not installed on the server',
    })
  })

  test('a child dies with its parent, even when the parent is killed with SIGKILL', async () => {
    expect(parentDeathPrefix()).toEqual(['setpriv', '--pdeathsig', 'KILL', '--'])
    // The parent is a small Node process (through tsx) that starts a long child through the pool.
    const script = path.join(process.cwd(), `.pdeath-${process.pid}.ts`)
    fs.writeFileSync(
      script,
      `import { runGdal } from '#app/domain/deliverables/gdal.server.ts'\n` +
        `await runGdal('sleep', ['120'], { owner: 'conversion', timeoutMs: 600_000 })\n`,
    )
    const parent = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'ignore' })
    try {
      let child = 0
      await until(() => {
        child = childrenNamed(parent.pid!, 'sleep')[0] ?? 0
        return child > 0
      }, 30_000)
      process.kill(parent.pid!, 'SIGKILL')
      await until(() => isGone(child), 10_000)
    } finally {
      parent.kill('SIGKILL')
      fs.rmSync(script, { force: true })
    }
  }, 60_000)
})
