/**
 * The session a request was already looked up with, kept for the rest of that request
 *. server/express-app.ts reads a write's session once to count it against the
 * account's write budget; the Remix load context carries that lookup (`context.session`),
 * and the auth guards, which are given only the request, find the load context of the
 * request they run in here and use the lookup instead of reading the database again.
 *
 * Safe by construction: the store is per request (AsyncLocalStorage, entered by the
 * Express app around Remix and tus), a lookup is used only for the very token the request
 * carries, and only once, so a later read in the same request (after the action changed
 * the account or its sessions) goes to the database.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { AppLoadContext } from '@remix-run/node'
import type { User } from '#db/schema.ts'

/** A session token and the active account behind it (null: unknown, expired or deactivated). */
export interface SessionLookup {
  token: string
  user: User | null
}

// One store for the Express server and the Remix build (two bundles in production), kept on
// globalThis as getDb() keeps its connection.
const globalKey = '__kestrelRequestContext' as const
type GlobalWithStore = typeof globalThis & { [globalKey]?: AsyncLocalStorage<AppLoadContext> }

function store() {
  const g = globalThis as GlobalWithStore
  g[globalKey] ??= new AsyncLocalStorage<AppLoadContext>()
  return g[globalKey]
}

/** Runs `handle` (Remix or tus for one request) with `context` as that request's load context. */
export function runWithLoadContext<T>(context: AppLoadContext, handle: () => T): T {
  return store().run(context, handle)
}

/**
 * The account the current request's session lookup found for `token`, once; undefined when
 * there is none to reuse (not a write, another token, already used, outside a request).
 */
export function takeKnownSessionUser(token: string): User | null | undefined {
  const context = store().getStore()
  const known = context?.session
  if (!context || !known || known.token !== token) return undefined
  context.session = undefined
  return known.user
}
