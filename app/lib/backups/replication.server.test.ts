import { describe, expect, test } from 'vitest'

import {
  nextReplicationState,
  parseLitestreamMetrics,
  replicationHealth,
  type ReplicationState,
} from './replication.server.ts'

/** Litestream v0.3.13's /metrics (the lines that matter), recorded with a file:// replica in step. */
const IN_STEP = `# HELP litestream_shadow_wal_index The current index of the shadow WAL
litestream_db_size{db="/data/kestrel.sqlite"} 16384
litestream_replica_validation_total{db="/data/kestrel.sqlite",name="file",status="ok"} 0
litestream_replica_wal_bytes{db="/data/kestrel.sqlite",name="file"} 28872
litestream_replica_wal_index{db="/data/kestrel.sqlite",name="file"} 0
litestream_replica_wal_offset{db="/data/kestrel.sqlite",name="file"} 28872
litestream_shadow_wal_index{db="/data/kestrel.sqlite"} 0
litestream_shadow_wal_size{db="/data/kestrel.sqlite"} 28872
litestream_sync_count{db="/data/kestrel.sqlite"} 5
`
/** Recorded with an s3:// replica whose bucket cannot be reached: no replica position at all. */
const NEVER_SYNCED = `litestream_db_size{db="/data/kestrel.sqlite"} 16384
litestream_replica_validation_total{db="/data/kestrel.sqlite",name="s3",status="ok"} 0
litestream_shadow_wal_index{db="/data/kestrel.sqlite"} 0
litestream_shadow_wal_size{db="/data/kestrel.sqlite"} 41232
litestream_sync_error_count{db="/data/kestrel.sqlite"} 0
`

const at = (seconds: number) => new Date(Date.UTC(2027, 0, 1, 9, 0, seconds))
const start = (): ReplicationState => ({
  since: at(0),
  lastSyncAt: null,
  lastCheckAt: null,
  replica: null,
  error: null,
  lastProbeAt: null,
})

describe('the replica from Litestream’s metrics', () => {
  test('reads the database’s and the replica’s WAL positions', () => {
    expect(parseLitestreamMetrics(IN_STEP)).toEqual({
      shadow: { index: 0, offset: 28872 },
      replica: { index: 0, offset: 28872 },
    })
    expect(parseLitestreamMetrics(NEVER_SYNCED)).toEqual({
      shadow: { index: 0, offset: 41232 },
      replica: null,
    })
  })

  test('in step is a sync; a replica that never syncs is failing after a minute, with its error', () => {
    let state = nextReplicationState(start(), parseLitestreamMetrics(IN_STEP), at(5))
    expect(replicationHealth(state, at(5))).toEqual({ state: 'ok', lastSyncAt: at(5), error: null })
    // Idle (nothing new to copy) stays in step: never a warning for a quiet database.
    state = nextReplicationState(state, parseLitestreamMetrics(IN_STEP), at(300))
    expect(replicationHealth(state, at(300))).toMatchObject({ state: 'ok', lastSyncAt: at(300) })

    let broken = nextReplicationState(start(), parseLitestreamMetrics(NEVER_SYNCED), at(5))
    expect(replicationHealth(broken, at(5))).toMatchObject({ state: 'starting', lastSyncAt: null })
    broken = { ...broken, error: 'NoSuchBucket: The specified bucket does not exist' }
    broken = nextReplicationState(broken, parseLitestreamMetrics(NEVER_SYNCED), at(61))
    expect(replicationHealth(broken, at(61))).toEqual({
      state: 'failing',
      lastSyncAt: null,
      error: 'NoSuchBucket: The specified bucket does not exist',
    })
  })

  test('a replica that falls behind is failing a minute after its last sync; moving again is a sync', () => {
    const behind = `${IN_STEP.replace('litestream_shadow_wal_size{db="/data/kestrel.sqlite"} 28872', 'litestream_shadow_wal_size{db="/data/kestrel.sqlite"} 90000')}`
    let state = nextReplicationState(start(), parseLitestreamMetrics(IN_STEP), at(10))
    state = nextReplicationState(state, parseLitestreamMetrics(behind), at(40))
    expect(replicationHealth(state, at(40))).toMatchObject({ state: 'ok', lastSyncAt: at(10) })
    state = nextReplicationState(state, parseLitestreamMetrics(behind), at(71))
    expect(replicationHealth(state, at(71))).toMatchObject({ state: 'failing', lastSyncAt: at(10) })
    const moving = behind.replace(/(litestream_replica_wal_offset\{[^}]*\}) 28872/, '$1 50000')
    state = nextReplicationState(state, parseLitestreamMetrics(moving), at(75))
    expect(replicationHealth(state, at(75))).toMatchObject({ state: 'ok', lastSyncAt: at(75) })
  })

  test('Litestream not answering is no sync, with the reason', () => {
    const state = nextReplicationState(start(), null, at(70), 'Litestream does not answer at 127.0.0.1:9090')
    expect(replicationHealth(state, at(70))).toEqual({
      state: 'failing',
      lastSyncAt: null,
      error: 'Litestream does not answer at 127.0.0.1:9090',
    })
  })
})
