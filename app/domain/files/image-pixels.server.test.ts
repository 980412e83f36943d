import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { geotaggedJpeg } from '#tests/helpers/geotagged-jpeg.ts'
import { describe, expect, test } from 'vitest'

import { assertCameraImageWithinPixelBudget, readImageDimensions } from './image-pixels.server.ts'

function temp(bytes: Buffer) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pixels-')), 'image')
  fs.writeFileSync(file, bytes)
  return file
}

function gif(width: number, height: number) {
  const b = Buffer.from('GIF89a\0\0\0\0\0\0\0', 'latin1')
  b.writeUInt16LE(width, 6)
  b.writeUInt16LE(height, 8)
  return b
}

function tiff(width: number, height: number) {
  const b = Buffer.alloc(8 + 2 + 2 * 12 + 4)
  b.write('II*\0', 0, 'latin1')
  b.writeUInt32LE(8, 4)
  b.writeUInt16LE(2, 8)
  for (const [i, [tag, value]] of [
    [256, width],
    [257, height],
  ].entries()) {
    const at = 10 + i * 12
    b.writeUInt16LE(tag!, at)
    b.writeUInt16LE(4, at + 2) // LONG
    b.writeUInt32LE(1, at + 4)
    b.writeUInt32LE(value!, at + 8)
  }
  return b
}

describe('readImageDimensions', () => {
  test('reads the size a JPEG (after its EXIF block), a GIF and a TIFF declare', async () => {
    const jpeg = await readImageDimensions(
      temp(geotaggedJpeg({ latitude: -33.9, longitude: 18.4 })),
      'image/jpeg',
    )
    expect(jpeg?.width).toBeGreaterThan(0)
    expect(jpeg?.height).toBeGreaterThan(0)
    expect(await readImageDimensions(temp(gif(640, 480)), 'image/gif')).toEqual({ width: 640, height: 480 })
    expect(await readImageDimensions(temp(tiff(20_000, 15_000)), 'image/tiff')).toEqual({
      width: 20_000,
      height: 15_000,
    })
  })

  test('an image whose header says nothing readable is refused (415), one over 200 MP is 413', async () => {
    await expect(
      assertCameraImageWithinPixelBudget(temp(Buffer.from('GIF89a', 'latin1')), 'image/gif'),
    ).rejects.toMatchObject({ status: 415 })
    await expect(
      assertCameraImageWithinPixelBudget(temp(tiff(20_000, 15_000)), 'image/tiff'),
    ).rejects.toMatchObject({ status: 413, message: expect.stringMatching(/20\s000 × 15\s000 pixels/) })
    await expect(
      assertCameraImageWithinPixelBudget(temp(gif(1000, 1000)), 'image/gif'),
    ).resolves.toBeUndefined()
  })
})
