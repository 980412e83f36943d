import { expect, test } from 'vitest'

import { getSqlite } from './db.server.ts'

test('every commit is synced to disk (synchronous=FULL) in WAL mode, so a paid payment survives a power cut', () => {
  const sqlite = getSqlite()
  // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
  expect(sqlite.pragma('synchronous', { simple: true })).toBe(2)
  expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
})
