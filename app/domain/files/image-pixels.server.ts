/**
 * The pixel budget for camera images: a flight photo declaring 50 000 × 50 000
 * pixels is a few kilobytes on disk but would need gigabytes to decode in a browser's
 * `<img>`, a thumbnailer or the coverage check. The size an image declares is read from its
 * header (never by decoding it); one over the budget, or one whose size cannot be read, is
 * refused before it is stored. Processed deliverables (orthomosaics, many gigapixels) are
 * exempt: the upload path calls this for the other categories only.
 */
import fs from 'node:fs'
import { formatNumber } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'

/** 200 megapixels: more than any survey drone camera takes (the largest are about 100 MP). */
const CAMERA_IMAGE_MAX_PIXELS = 200_000_000

/** Enough of the file for every header read here (JPEG's EXIF block comes before SOF). */
const HEAD_BYTES = 512 * 1024

interface Dimensions {
  width: number
  height: number
}

function pngSize(b: Buffer): Dimensions | null {
  // Signature (8), IHDR length (4), 'IHDR' (4), width, height.
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) }
}

function gifSize(b: Buffer): Dimensions | null {
  if (b.length < 10) return null
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) }
}

function bmpSize(b: Buffer): Dimensions | null {
  if (b.length < 26) return null
  return { width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) }
}

/** The first start-of-frame marker's size (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(b: Buffer): Dimensions | null {
  let at = 2
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null
    const marker = b[at + 1]!
    if (marker === 0xff) {
      at++
      continue
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    const length = b.readUInt16BE(at + 2)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) }
    }
    if (length < 2) return null
    at += 2 + length
  }
  return null
}

function webpSize(b: Buffer): Dimensions | null {
  if (b.length < 30) return null
  const chunk = b.toString('latin1', 12, 16)
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) }
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff }
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21)
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) }
  }
  return null
}

/**
 * TIFF and the camera raw formats built on it (DNG, CR2, NEF, ARW…): the largest
 * ImageWidth × ImageLength among the image directories, so a raw's full-size image
 * counts, not only its preview.
 */
function tiffSize(b: Buffer): Dimensions | null {
  if (b.length < 8) return null
  const little = b.toString('latin1', 0, 2) === 'II'
  const u16 = (at: number) => (little ? b.readUInt16LE(at) : b.readUInt16BE(at))
  const u32 = (at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at))
  let largest: Dimensions | null = null
  const seen = new Set<number>()
  const queue = [u32(4)]
  while (queue.length > 0 && seen.size < 16) {
    const ifd = queue.shift()!
    if (seen.has(ifd) || ifd < 8 || ifd + 2 > b.length) continue
    seen.add(ifd)
    const count = Math.min(u16(ifd), 512)
    let width = 0
    let height = 0
    for (let i = 0; i < count; i++) {
      const entry = ifd + 2 + i * 12
      if (entry + 12 > b.length) break
      const tag = u16(entry)
      const type = u16(entry + 2)
      const value = type === 3 ? u16(entry + 8) : u32(entry + 8)
      if (tag === 256) width = value
      else if (tag === 257) height = value
      else if (tag === 330) queue.push(value) // SubIFDs: a raw's full image (first one only)
    }
    if (width && height && (!largest || width * height > largest.width * largest.height)) {
      largest = { width, height }
    }
    const next = ifd + 2 + count * 12
    if (next + 4 <= b.length) queue.push(u32(next))
  }
  return largest
}

/** HEIC/HEIF/AVIF: the largest image spatial extent ('ispe') property. */
function isoBoxSize(b: Buffer): Dimensions | null {
  let largest: Dimensions | null = null
  for (let at = b.indexOf('ispe', 0, 'latin1'); at >= 0; at = b.indexOf('ispe', at + 4, 'latin1')) {
    if (at + 16 > b.length) break
    const found = { width: b.readUInt32BE(at + 8), height: b.readUInt32BE(at + 12) }
    if (!largest || found.width * found.height > largest.width * largest.height) largest = found
  }
  return largest
}

/** The width and height an image's header declares, or null when it cannot be read. */
export async function readImageDimensions(file: string, mime: string): Promise<Dimensions | null> {
  const handle = await fs.promises.open(file, 'r')
  let head: Buffer
  try {
    const buffer = Buffer.alloc(HEAD_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0)
    head = buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
  if (mime === 'image/png' || mime === 'image/apng') return pngSize(head)
  if (mime === 'image/jpeg') return jpegSize(head)
  if (mime === 'image/gif') return gifSize(head)
  if (mime === 'image/webp') return webpSize(head)
  if (mime === 'image/bmp') return bmpSize(head)
  if (mime === 'image/heic' || mime === 'image/heif' || mime === 'image/avif') return isoBoxSize(head)
  const tag = head.toString('latin1', 0, 4)
  if (tag === 'II*\0' || tag === 'MM\0*') return tiffSize(head)
  return null
}

const IMAGE_SIZE_UNREADABLE_MESSAGE = 'The size of this image could not be read. Please upload a JPG or PNG.'

export function imageTooLargeMessage({ width, height }: Dimensions) {
  return (
    `This image is ${formatNumber(width)} × ${formatNumber(height)} pixels; camera images ` +
    `may have at most ${formatNumber(CAMERA_IMAGE_MAX_PIXELS / 1_000_000)} megapixels.`
  )
}

/**
 * Refuses (413) a camera image over the pixel budget, and (415) one whose size its header
 * does not say, before it is stored or shown in an `<img>`.
 */
export async function assertCameraImageWithinPixelBudget(file: string, mime: string) {
  const size = await readImageDimensions(file, mime)
  if (!size || size.width <= 0 || size.height <= 0) throw new DomainError(415, IMAGE_SIZE_UNREADABLE_MESSAGE)
  if (size.width * size.height > CAMERA_IMAGE_MAX_PIXELS) {
    throw new DomainError(413, imageTooLargeMessage(size))
  }
}
