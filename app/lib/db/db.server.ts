/**
 * The one SQLite connection. Opened lazily at DATABASE_PATH, with WAL, foreign keys
 * and a busy timeout, and migrated on first open (migrations run at start, and in
 * tests against each fresh file). Kept on globalThis so the Express server and the
 * Remix build (two bundles) share it, and dev rebuilds don't open new handles.
 * Depends on nothing of the domain (ADR 245): reference data is a start-up step
 * (`ensureReferenceDrones()` in server.ts, the vitest set-up and the demo seed).
 */
import fs from 'node:fs'
import path from 'node:path'
import { getEnv } from '#app/lib/config/env.server.ts'
import * as schema from '#db/schema.ts'
import Database from 'better-sqlite3'
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'

export type Db = BetterSQLite3Database<typeof schema>
/** The transaction handle drizzle passes to `db.transaction(tx => …)`. */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Services accept either the database or a transaction. */
export type DbOrTx = Db | Tx

interface Handle {
  path: string
  sqlite: Database.Database
  db: Db
}

const globalKey = '__kestrelDb' as const
type GlobalWithDb = typeof globalThis & { [globalKey]?: Handle }

function migrationsFolder() {
  return path.resolve(process.cwd(), 'db/migrations')
}

function open(dbPath: string): Handle {
  if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true })
  const sqlite = new Database(dbPath)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  // FULL: a committed payment survives a power cut, not only a process crash.
  sqlite.pragma('synchronous = FULL')
  const db = drizzle(sqlite, { schema })
  migrate(db, { migrationsFolder: migrationsFolder() })
  return { path: dbPath, sqlite, db }
}

function handle(): Handle {
  const g = globalThis as GlobalWithDb
  const wanted = getEnv().DATABASE_PATH
  const current = g[globalKey]
  if (current && current.path === wanted && current.sqlite.open) return current
  if (current?.sqlite.open) current.sqlite.close()
  g[globalKey] = open(wanted)
  return g[globalKey]!
}

export function getDb(): Db {
  return handle().db
}

export function getSqlite(): Database.Database {
  return handle().sqlite
}

export function closeDb() {
  const g = globalThis as GlobalWithDb
  if (g[globalKey]?.sqlite.open) g[globalKey]!.sqlite.close()
  g[globalKey] = undefined
}
