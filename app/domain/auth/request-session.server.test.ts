/**
 * The guards reuse the session lookup the write budget made for the same request:
 * only inside that request's scope, only for the token the request carries, only once.
 */
import { getSqlite } from '#app/lib/db/db.server.ts'
import { signedInUser } from '#tests/factories.ts'
import { describe, expect, test, vi } from 'vitest'

import { requireApiUser, requireUser } from './guards.server.ts'
import { runWithLoadContext } from './request-session.server.ts'
import { lookupSession } from './session.server.ts'

const requestWith = (token: string) =>
  new Request('http://localhost/api/anything', { method: 'POST', headers: { 'x-session-id': token } })

/** Counts the session reads (SELECTs on `sessions`) while `run` runs. */
async function sessionReads<T>(run: () => Promise<T>) {
  const prepare = vi.spyOn(getSqlite(), 'prepare')
  const result = await run()
  const reads = prepare.mock.calls.filter(([sql]) => /select .* from "sessions"/is.test(String(sql))).length
  prepare.mockRestore()
  return { result, reads }
}

describe('guards and the load context of the request', () => {
  test("the guard uses the request's session lookup instead of reading the database again", async () => {
    const { token } = await signedInUser('client')
    const { result, reads } = await sessionReads(async () => {
      const lookup = await lookupSession({ sessionHeader: token })
      return runWithLoadContext({ clientIp: '203.0.113.7', session: lookup! }, () =>
        requireApiUser(requestWith(token), 'client'),
      )
    })
    expect(reads).toBe(1)
    expect(result.role).toBe('client')
  })

  test('the lookup is the one the guard returns, and it is used once', async () => {
    const { user, token } = await signedInUser('client')
    const marked = { ...user, firstName: 'From the lookup' }
    await runWithLoadContext({ clientIp: '203.0.113.7', session: { token, user: marked } }, async () => {
      expect((await requireUser(requestWith(token))).firstName).toBe('From the lookup')
      // A second read in the same request sees the database (the action may have changed it).
      expect((await requireUser(requestWith(token))).firstName).toBe(user.firstName)
    })
  })

  test('loaders (a GET, as Remix calls them after a page action) read the database', async () => {
    const { user, token } = await signedInUser('client')
    const context = { clientIp: '203.0.113.7', session: { token, user: { ...user, firstName: 'Stale' } } }
    const get = new Request('http://localhost/dashboard', { headers: { 'x-session-id': token } })
    const seen = await runWithLoadContext(context, () => requireUser(get))
    expect(seen.firstName).toBe(user.firstName)
  })

  test("another token's lookup is never used", async () => {
    const mine = await signedInUser('client')
    const theirs = await signedInUser('admin')
    const context = { clientIp: '203.0.113.7', session: { token: theirs.token, user: theirs.user } }
    const user = await runWithLoadContext(context, () => requireUser(requestWith(mine.token)))
    expect(user.id).toBe(mine.user.id)
    expect(context.session).toBeDefined()
  })

  test('a lookup that found no account refuses, like the database would', async () => {
    const { token } = await signedInUser('client')
    const refused = await runWithLoadContext(
      { clientIp: '203.0.113.7', session: { token, user: null } },
      () =>
        requireApiUser(requestWith(token)).then(
          () => null,
          (error: unknown) => error,
        ),
    )
    expect(refused).toMatchObject({ status: 401 })
  })

  test('requests running at the same time each see their own lookup; outside a request the database is read', async () => {
    const a = await signedInUser('client')
    const b = await signedInUser('pilot')
    const inScope = (who: typeof a, label: string) =>
      runWithLoadContext(
        { clientIp: '203.0.113.7', session: { token: who.token, user: { ...who.user, firstName: label } } },
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 5))
          return requireUser(requestWith(who.token))
        },
      )
    const [userA, userB] = await Promise.all([inScope(a, 'A'), inScope(b, 'B')])
    expect([userA.id, userA.firstName, userB.id, userB.firstName]).toEqual([a.user.id, 'A', b.user.id, 'B'])
    const { result, reads } = await sessionReads(() => requireUser(requestWith(a.token)))
    expect([result.firstName, reads]).toEqual([a.user.firstName, 1])
  })
})
