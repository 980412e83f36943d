/**
 * The names inside a ZIP, read from its central directory at the end of the file (ZIP64
 * too), so a 3 GB model archive is classified from a few kilobytes. No library here reads
 * a central directory without reading the whole archive.
 */
import fs from 'node:fs'

const EOCD = 0x06054b50
const ZIP64_LOCATOR = 0x07064b50
const ZIP64_EOCD = 0x06064b50
const CENTRAL_ENTRY = 0x02014b50
/** The directory read at most (≈ 40 000 short names): enough to tell what an archive holds. */
const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024

async function readAt(handle: fs.promises.FileHandle, position: number, length: number) {
  const buf = Buffer.alloc(length)
  const { bytesRead } = await handle.read(buf, 0, length, position)
  return buf.subarray(0, bytesRead)
}

/** Up to `max` entry names, or null when the file has no readable central directory. */
export async function zipEntryNames(file: string, max = 5000): Promise<string[] | null> {
  const handle = await fs.promises.open(file, 'r')
  try {
    const size = (await handle.stat()).size
    const tailLength = Math.min(size, 22 + 0xffff)
    const tail = await readAt(handle, size - tailLength, tailLength)
    let eocd = -1
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        eocd = i
        break
      }
    }
    if (eocd < 0) return null
    let directorySize = tail.readUInt32LE(eocd + 12)
    let directoryOffset = tail.readUInt32LE(eocd + 16)
    if (directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
      const locator = eocd - 20
      if (locator < 0 || tail.readUInt32LE(locator) !== ZIP64_LOCATOR) return null
      const zip64At = Number(tail.readBigUInt64LE(locator + 8))
      const zip64 = await readAt(handle, zip64At, 56)
      if (zip64.length < 56 || zip64.readUInt32LE(0) !== ZIP64_EOCD) return null
      directorySize = Number(zip64.readBigUInt64LE(40))
      directoryOffset = Number(zip64.readBigUInt64LE(48))
    }
    if (directoryOffset >= size) return null
    const directory = await readAt(handle, directoryOffset, Math.min(directorySize, MAX_DIRECTORY_BYTES))
    const names: string[] = []
    let at = 0
    while (at + 46 <= directory.length && names.length < max) {
      if (directory.readUInt32LE(at) !== CENTRAL_ENTRY) break
      const nameLength = directory.readUInt16LE(at + 28)
      const extraLength = directory.readUInt16LE(at + 30)
      const commentLength = directory.readUInt16LE(at + 32)
      if (at + 46 + nameLength > directory.length) break
      names.push(directory.subarray(at + 46, at + 46 + nameLength).toString('utf8'))
      at += 46 + nameLength + extraLength + commentLength
    }
    return names
  } finally {
    await handle.close()
  }
}
