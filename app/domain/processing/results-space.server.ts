/**
 * Room on Kestrel's disk for a job's results (README's disk rule: per 10 GB of photos, 5–30 GB
 * for all.zip and the imported products). Checked before the photos leave, before the archive
 * is downloaded (its announced length) and while it arrives; the download is capped by the
 * photos' bytes, so an endless or oversized archive stops early with the figures.
 */
import { getDiskSpace } from '#app/domain/files/disk-space.server.ts'
import { formatFileSize } from '#app/lib/format/numbers.ts'

const GiB = 1024 ** 3
/** Kept free above MIN_FREE_DISK_MB while results arrive, for the uploads and writes of everyone else. */
const MARGIN_BYTES = 256 * 1024 ** 2

/** A job's results the disk rule expects: the archive and its unpacked products, each about the photos' size. */
export function expectedResultsBytes(photoBytes: number) {
  return 2 * photoBytes
}

/** The most a job's all.zip may be: four times its photos (the rule's worst case is three), at least 1 GiB. */
export function archiveCapBytes(photoBytes: number, ceiling: number) {
  return Math.min(ceiling, Math.max(GiB, 4 * photoBytes))
}

/** A job stopped for lack of room: its message carries the figures. */
export class NoRoomError extends Error {
  override name = 'NoRoomError'
}

function floorOf(minFreeBytes: number) {
  return minFreeBytes + MARGIN_BYTES
}

/** Throws NoRoomError when storing `bytes` would take free space below MIN_FREE_DISK_MB and the margin. */
export async function assertRoomForResults(what: string, bytes: number) {
  const space = await getDiskSpace()
  if (space.freeBytes - bytes < floorOf(space.minFreeBytes)) {
    throw new NoRoomError(
      `${what} need about ${formatFileSize(bytes)} on Kestrel's disk: ${formatFileSize(space.freeBytes)} is free ` +
        `and ${formatFileSize(floorOf(space.minFreeBytes))} must stay free (MIN_FREE_DISK_MB and a margin)`,
    )
  }
}

/**
 * Watches the disk while all.zip arrives: the free space is read every `everyMs` and `check`
 * (the download's watch) throws NoRoomError once what is still to come would not fit.
 */
export async function watchRoomForArchive(everyMs = 1000) {
  let space = await getDiskSpace()
  let reading = false
  const timer = setInterval(() => {
    if (reading) return
    reading = true
    getDiskSpace()
      .then((now) => (space = now))
      .catch(() => {})
      .finally(() => (reading = false))
  }, everyMs)
  timer.unref()
  return {
    check(received: number, announced: number | null) {
      const toCome = announced === null ? 0 : Math.max(0, announced - received)
      const floor = floorOf(space.minFreeBytes)
      if (space.freeBytes - toCome >= floor) return
      const free = `${formatFileSize(space.freeBytes)} is free on Kestrel's disk and ${formatFileSize(floor)} must stay free (MIN_FREE_DISK_MB and a margin)`
      throw new NoRoomError(
        announced === null
          ? `all.zip stopped at ${formatFileSize(received)}: ${free}`
          : `all.zip is ${formatFileSize(announced)}${received ? ` (${formatFileSize(received)} received)` : ''}: ${free}`,
      )
    },
    /** After a failed write: the NoRoomError when the disk is at its floor (full, not the node's fault), else null. */
    async full(received: number) {
      const now = await getDiskSpace()
      const floor = floorOf(now.minFreeBytes)
      if (now.freeBytes >= floor) return null
      return new NoRoomError(
        `Kestrel's disk filled up after ${formatFileSize(received)} of all.zip: ${formatFileSize(now.freeBytes)} is free and ${formatFileSize(floor)} must stay free (MIN_FREE_DISK_MB and a margin)`,
      )
    },
    stop: () => clearInterval(timer),
  }
}
