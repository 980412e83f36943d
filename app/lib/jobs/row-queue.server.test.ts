/**
 * The row queue on a real SQLite table of its own: claims are compare-and-sets, at most
 * `concurrency` items run, failures come back after their back-off, kick/idle/stop/abort.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { getSqlite } from '#app/lib/db/db.server.ts'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'

import {
  backoffMs,
  startRowQueue,
  STOPPING,
  type RowQueue,
  type RowQueueOptions,
} from './row-queue.server.ts'

interface Row {
  id: number
  status: string
  attempts: number
  due_at: number
}

let queue: RowQueue<number> | null = null

beforeEach(() => {
  getSqlite().exec(
    `drop table if exists queue_test;
     create table queue_test (id integer primary key, status text not null default 'queued',
       attempts integer not null default 0, due_at integer not null default 0, error text)`,
  )
})

afterEach(async () => {
  await queue?.stop()
  queue = null
})

function insert(count: number) {
  const add = getSqlite().prepare('insert into queue_test default values')
  for (let i = 0; i < count; i++) add.run()
}

const rows = () => getSqlite().prepare('select * from queue_test order by id').all() as Row[]

/** Due queued rows, each taken with a compare-and-set on its status. */
function claim(limit: number, inHand: ReadonlySet<number>) {
  const sqlite = getSqlite()
  const due = sqlite
    .prepare(`select * from queue_test where status = 'queued' and due_at <= ? order by id limit ?`)
    .all(Date.now(), limit + inHand.size) as Row[]
  const take = sqlite.prepare(`update queue_test set status = 'running' where id = ? and status = 'queued'`)
  const claimed: Row[] = []
  for (const row of due) {
    if (claimed.length === limit) break
    if (!inHand.has(row.id) && take.run(row.id).changes === 1) claimed.push(row)
  }
  return claimed
}

const pending = () =>
  Boolean(getSqlite().prepare(`select 1 from queue_test where status in ('queued', 'running')`).get())

const finish = (id: number, status: string) =>
  getSqlite().prepare('update queue_test set status = ? where id = ?').run(status, id)

/** A queue over queue_test: its claim, key and pending, with `options` for the test. */
function testQueue(options: Omit<RowQueueOptions<Row, number>, 'name' | 'claim' | 'keyOf' | 'pending'>) {
  return startRowQueue<Row, number>({ name: 'test', claim, keyOf: (row) => row.id, pending, ...options })
}

describe('row queue', () => {
  test('runs every row once, never more than `concurrency` at once; idle waits for all', async () => {
    insert(7)
    let atOnce = 0
    let most = 0
    const seen: number[] = []
    queue = testQueue({
      concurrency: 3,
      async work(row) {
        atOnce++
        most = Math.max(most, atOnce)
        seen.push(row.id)
        await sleep(20)
        atOnce--
        finish(row.id, 'done')
      },
    })
    await queue.idle()
    expect(most).toBe(3)
    expect(seen.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(rows().every((row) => row.status === 'done')).toBe(true)
  })

  test('a row added later waits for a kick when nothing polls; then it runs', async () => {
    const seen: number[] = []
    queue = testQueue({
      concurrency: 1,
      async work(row) {
        seen.push(row.id)
        finish(row.id, 'done')
      },
    })
    insert(1)
    await sleep(50)
    expect(seen).toEqual([])
    queue.kick()
    await queue.idle()
    expect(seen).toEqual([1])
  })

  test('a failed attempt is written with its back-off and tried again when due', async () => {
    insert(1)
    const tries: number[] = []
    queue = testQueue({
      concurrency: 1,
      pollMs: 20,
      nextDueAt: () => {
        const row = getSqlite()
          .prepare(`select min(due_at) as at from queue_test where status = 'queued'`)
          .get() as {
          at: number | null
        }
        return row.at === null ? null : new Date(row.at)
      },
      retry: {
        baseMs: 30,
        attemptsOf: (row) => row.attempts,
        record(row, { attempts, error, dueAt }) {
          getSqlite()
            .prepare(
              `update queue_test set status = 'queued', attempts = ?, due_at = ?, error = ? where id = ?`,
            )
            .run(attempts, dueAt.getTime(), String(error), row.id)
        },
      },
      async work(row) {
        tries.push(Date.now())
        if (row.attempts < 2) throw new Error(`attempt ${row.attempts + 1} failed`)
        finish(row.id, 'done')
      },
    })
    await queue.idle()
    expect(tries).toHaveLength(3)
    expect(rows()[0]).toMatchObject({ status: 'done', attempts: 2, error: 'Error: attempt 2 failed' })
    // The second wait (about 60 ms) is longer than the first (about 30 ms), each at least 80 % of it.
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(24)
    expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(48)
  })

  test('abort stops one item with its reason and resolves once it has ended; the others go on', async () => {
    insert(2)
    const reasons: Record<number, unknown> = {}
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    queue = testQueue({
      concurrency: 2,
      async work(row, signal) {
        if (row.id === 1) {
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))
          await sleep(20)
          reasons[row.id] = signal.reason
          return void finish(row.id, 'canceled')
        }
        await released
        finish(row.id, 'done')
      },
    })
    expect(queue.running().sort()).toEqual([1, 2])
    await queue.abort(1, 'deleted')
    expect(reasons[1]).toBe('deleted')
    expect(rows()[0]!.status).toBe('canceled')
    expect(queue.running()).toEqual([2])
    release()
    await queue.idle()
    expect(rows()[1]!.status).toBe('done')
    await queue.abort(99)
  })

  test('stop waits for the running items (aborted with STOPPING) and claims nothing afterwards', async () => {
    insert(1)
    let ended: unknown = null
    queue = testQueue({
      concurrency: 1,
      pollMs: 10,
      async work(row, signal) {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))
        await sleep(30)
        ended = signal.reason
        getSqlite().prepare(`update queue_test set status = 'queued' where id = ?`).run(row.id)
      },
    })
    await queue.stop()
    expect(ended).toBe(STOPPING)
    insert(1)
    await sleep(50)
    expect(rows().map((row) => row.status)).toEqual(['queued', 'queued'])
    // A stopped queue is idle at once, work pending or not.
    await queue.idle()
  })

  test('back-off doubles per attempt within ±20 % and stops at the ceiling', () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const wait = backoffMs(attempt, 100)
      expect(wait).toBeGreaterThanOrEqual(80 * 2 ** attempt)
      expect(wait).toBeLessThanOrEqual(120 * 2 ** attempt)
    }
    expect(backoffMs(30, 1000, 5000)).toBeLessThanOrEqual(6000)
  })
})
