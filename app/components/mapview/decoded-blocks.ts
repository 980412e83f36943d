/**
 * Decoded COG blocks kept by their compressed bytes (browser-safe, no DOM). geotiff.js hands
 * the decoder a fresh copy of a block's bytes on every read (its blocked source copies each
 * slice), so a cache keyed by the buffer never hits and a 512 px block was inflated again for
 * every 256 px map tile it serves. Keyed by the bytes' hash, checked byte for byte on a hit.
 */
import { getDecoder, type Pool } from 'geotiff'

interface Entry {
  bytes: Uint8Array
  decoded: Promise<ArrayBuffer>
}

/** FNV-1a over the bytes, four at a time where it can. */
function hashOf(bytes: Uint8Array) {
  let hash = 0x811c9dc5
  const words = Math.floor(bytes.byteLength / 4)
  const aligned = bytes.byteOffset % 4 === 0 ? new Int32Array(bytes.buffer, bytes.byteOffset, words) : null
  let i = 0
  if (aligned) {
    for (; i < words; i++) hash = Math.imul(hash ^ aligned[i]!, 0x01000193)
    i *= 4
  }
  for (; i < bytes.byteLength; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193)
  return hash >>> 0
}

function sameBytes(a: Uint8Array, b: Uint8Array) {
  if (a.byteLength !== b.byteLength) return false
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false
  return true
}

/** Keeps the last `maxBlocks` decoded blocks; `kind` names the decoder and its parameters. */
export function createDecodedBlocks(maxBlocks: number) {
  // A Map keeps insertion order: re-inserting on a hit makes it least recently used last.
  const kept = new Map<string, Entry>()
  let decodes = 0

  function decode(kind: string, buffer: ArrayBuffer, decoder: (buffer: ArrayBuffer) => Promise<ArrayBuffer>) {
    const bytes = new Uint8Array(buffer)
    const key = `${kind}|${bytes.byteLength}|${hashOf(bytes)}`
    const known = kept.get(key)
    if (known && sameBytes(known.bytes, bytes)) {
      kept.delete(key)
      kept.set(key, known)
      return known.decoded
    }
    decodes++
    const decoded = decoder(buffer)
    const entry = { bytes, decoded }
    kept.delete(key)
    kept.set(key, entry)
    decoded.catch(() => {
      if (kept.get(key) === entry) kept.delete(key)
    })
    if (kept.size > maxBlocks) kept.delete(kept.keys().next().value!)
    return decoded
  }

  return {
    decode,
    /** For tests: how many blocks are kept and how many were decoded. */
    stats: () => ({ kept: kept.size, decodes }),
  }
}

/** Decoded blocks kept per COG: a 512 px block serves four 256 px map tiles and more when zoomed past it. */
const DECODED_BLOCKS = 48

/**
 * A stand-in for geotiff.js's worker pool for one COG that decodes on this thread and keeps
 * the last blocks decoded (`readRasters({ pool })`).
 */
export function decodingPool(blocks = createDecodedBlocks(DECODED_BLOCKS)): Pool {
  const pool = {
    bindParameters(compression: number, parameters: Parameters<typeof getDecoder>[1]) {
      const decoder = getDecoder(compression, parameters)
      const kind = `${compression}:${JSON.stringify(parameters)}`
      return {
        decode: (buffer: ArrayBuffer) =>
          blocks.decode(kind, buffer, (bytes) =>
            decoder.then((d) => d.decode(bytes) as Promise<ArrayBuffer>),
          ),
      }
    },
  }
  return pool as unknown as Pool
}
