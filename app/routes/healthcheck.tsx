import { getDiskSpace } from '#app/domain/files/disk-space.server.ts'
import { replicationStatus } from '#app/lib/backups/replication.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { sql } from 'drizzle-orm'

const MB = 1024 * 1024

/**
 * For the platform's health checks: 200 when the database answers, with the free disk
 * space of the file store (`disk.low` when uploads are being refused for lack of it) and,
 * under Litestream, the replica's last successful sync: 503 (`degraded`) after a minute
 * without one, so the platform's check and any monitor see that writes are not being copied.
 */
export async function loader() {
  const headers = { 'Cache-Control': 'no-store' }
  try {
    getDb().get(sql`select 1`)
  } catch (error) {
    console.error('[healthcheck]', error)
    return Response.json({ status: 'error', database: 'error' }, { status: 500, headers })
  }
  let disk: Record<string, unknown>
  try {
    const space = await getDiskSpace()
    disk = {
      freeMb: Math.floor(space.freeBytes / MB),
      totalMb: Math.floor(space.totalBytes / MB),
      minFreeMb: Math.floor(space.minFreeBytes / MB),
      low: space.low,
    }
  } catch (error) {
    console.error('[healthcheck] disk', error)
    disk = { error: 'unavailable' }
  }
  const replica = replicationStatus()
  const replication =
    replica.state === 'off'
      ? undefined
      : { state: replica.state, lastSyncAt: replica.lastSyncAt?.toISOString() ?? null, error: replica.error }
  const failing = replica.state === 'failing'
  return Response.json(
    { status: disk.low || failing ? 'degraded' : 'ok', database: 'ok', disk, replication },
    { status: failing ? 503 : 200, headers },
  )
}
