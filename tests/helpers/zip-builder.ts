/**
 * ZIP archives written byte by byte (ZIP64 directory always), so a test can build what no
 * zip library would: `..` names, links, sizes that lie, 100,000 entries.
 */
import fs from 'node:fs/promises'
import zlib from 'node:zlib'

export interface ZipEntrySpec {
  name: string
  data?: Buffer
  /** Deflate the data (method 8) instead of storing it. */
  deflate?: boolean
  /** The uncompressed size the directory claims (default: the real one). */
  claimedSize?: number
  /** Unix mode bits for the external attributes (e.g. 0o120777 for a link). */
  mode?: number
  /** Deflated bytes written as they are (method 8), with the size the directory states. */
  precompressed?: { body: Buffer; size: number }
}

/** Little-endian fields into one buffer: [bytes, value] pairs (2, 4 or 8 bytes each). */
function fields(...spec: Array<[2 | 4 | 8, number]>) {
  const buf = Buffer.allocUnsafe(spec.reduce((n, [w]) => n + w, 0))
  let at = 0
  for (const [width, value] of spec) {
    if (width === 2) buf.writeUInt16LE(value, at)
    else if (width === 4) buf.writeUInt32LE(value >>> 0, at)
    else buf.writeBigUInt64LE(BigInt(value), at)
    at += width
  }
  return buf
}
const u16 = (n: number) => fields([2, n])
const u32 = (n: number) => fields([4, n])
const u64 = (n: number) => fields([8, n])

export async function writeZip(file: string, entries: ZipEntrySpec[]) {
  const handle = await fs.open(file, 'w')
  let offset = 0
  let pending: Buffer[] = []
  let pendingBytes = 0
  const flush = async () => {
    if (pending.length) await handle.write(Buffer.concat(pending))
    pending = []
    pendingBytes = 0
  }
  const write = async (...parts: Buffer[]) => {
    for (const part of parts) {
      pending.push(part)
      pendingBytes += part.length
      offset += part.length
    }
    if (pendingBytes > 1024 * 1024) await flush()
  }
  const central: Buffer[] = []
  try {
    for (const entry of entries) {
      const raw = entry.data ?? Buffer.alloc(0)
      const given = entry.precompressed
      const body = given ? given.body : entry.deflate ? zlib.deflateRawSync(raw) : raw
      const crc = given ? 0 : zlib.crc32(raw)
      const size = given ? given.size : (entry.claimedSize ?? raw.length)
      const name = Buffer.from(entry.name)
      const method = given || entry.deflate ? 8 : 0
      const big = size >= 0xffffffff
      const localOffset = offset
      // The ZIP64 extra field (both sizes in 64 bits), the same in both headers.
      const extra = big ? Buffer.concat([u16(1), u16(16), u64(size), u64(body.length)]) : Buffer.alloc(0)
      // What the local header and the central directory both say: version needed, UTF-8 names,
      // method, time and date, CRC, sizes and the name's and extra field's lengths.
      const described: Array<[2 | 4, number]> = [
        [2, 45],
        [2, 0x0800],
        [2, method],
        [2, 0],
        [2, 0x21],
        [4, crc],
        [4, big ? 0xffffffff : body.length],
        [4, big ? 0xffffffff : size],
        [2, name.length],
        [2, extra.length],
      ]
      await write(fields([4, 0x04034b50], ...described), name, extra, body)
      central.push(
        Buffer.concat([
          fields(
            [4, 0x02014b50],
            [2, (3 << 8) | 45],
            ...described,
            [2, 0],
            [2, 0],
            [2, 0],
            [4, ((entry.mode ?? 0o100644) << 16) >>> 0],
            [4, localOffset],
          ),
          name,
          extra,
        ]),
      )
    }
    const directoryOffset = offset
    const directory = Buffer.concat(central)
    await write(directory)
    const zip64At = offset
    const n = entries.length
    await write(
      u32(0x06064b50),
      u64(44),
      u16(45),
      u16(45),
      u32(0),
      u32(0),
      u64(n),
      u64(n),
      u64(directory.length),
      u64(directoryOffset),
    )
    await write(u32(0x07064b50), u32(0), u64(zip64At), u32(1))
    const many = n > 0xfffe
    await write(
      u32(0x06054b50),
      u16(0),
      u16(0),
      u16(many ? 0xffff : n),
      u16(many ? 0xffff : n),
      u32(directory.length),
      u32(directoryOffset),
      u16(0),
    )
    await flush()
  } finally {
    await handle.close()
  }
}
