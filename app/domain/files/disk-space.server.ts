/**
 * Free space on the disk that holds DATA_DIR (and, on one machine, the database). An
 * upload is refused with 507 when it would leave less than MIN_FREE_DISK_MB free, so
 * SQLite writes (payments above all) never fail for lack of space.
 */
import fs from 'node:fs'
import path from 'node:path'
import { getEnv } from '#app/lib/config/env.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'

import { FILE_MESSAGES } from './rules.ts'

const MB = 1024 * 1024

export interface DiskSpace {
  freeBytes: number
  totalBytes: number
  minFreeBytes: number
  /** True when free space is already below the floor. */
  low: boolean
}

/** The nearest existing folder of DATA_DIR (it may not exist yet on a fresh machine). */
function existingAncestor(dir: string) {
  let current = path.resolve(dir)
  while (!fs.existsSync(current)) {
    const parent = path.dirname(current)
    if (parent === current) break
    current = parent
  }
  return current
}

export async function getDiskSpace(dir = getEnv().DATA_DIR): Promise<DiskSpace> {
  const stats = await fs.promises.statfs(existingAncestor(dir))
  const freeBytes = Number(stats.bavail) * Number(stats.bsize)
  const totalBytes = Number(stats.blocks) * Number(stats.bsize)
  const minFreeBytes = getEnv().MIN_FREE_DISK_MB * MB
  return { freeBytes, totalBytes, minFreeBytes, low: freeBytes < minFreeBytes }
}

/** Throws 507 when storing `bytes` more would take free space below the floor. */
export async function assertRoomFor(bytes: number, dir = getEnv().DATA_DIR) {
  const space = await getDiskSpace(dir)
  if (space.freeBytes - Math.max(0, bytes) < space.minFreeBytes) {
    throw new DomainError(507, FILE_MESSAGES.diskFull)
  }
}
