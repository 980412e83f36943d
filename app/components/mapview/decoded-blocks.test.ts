import fs from 'node:fs'
import path from 'node:path'
import { BaseClient, BaseResponse, fromCustomClient } from 'geotiff'
import { describe, expect, it, vi } from 'vitest'

import { buildViewingCog } from '../../../tests/helpers/dsm-fixtures.ts'
import { buildConeDsm } from '../../../tests/helpers/rasters.ts'
import { createDecodedBlocks, decodingPool } from './decoded-blocks.ts'

const bytesOf = (...values: number[]) => new Uint8Array(values).buffer

describe('decoded COG blocks', () => {
  it('decodes a block once however many copies of its bytes arrive', async () => {
    const blocks = createDecodedBlocks(8)
    const decoder = vi.fn((b: ArrayBuffer) => Promise.resolve(b.slice(0)))
    const first = await blocks.decode('deflate', bytesOf(1, 2, 3, 4, 5), decoder)
    const again = await blocks.decode('deflate', bytesOf(1, 2, 3, 4, 5), decoder)
    expect(decoder).toHaveBeenCalledTimes(1)
    expect(again).toBe(first)
    // Other bytes, or the same bytes for another decoder, are decoded on their own.
    await blocks.decode('deflate', bytesOf(1, 2, 3, 4, 6), decoder)
    await blocks.decode('lzw', bytesOf(1, 2, 3, 4, 5), decoder)
    expect(decoder).toHaveBeenCalledTimes(3)
  })

  it('keeps only the last blocks used, and forgets a failed decode', async () => {
    const blocks = createDecodedBlocks(2)
    const decoder = vi.fn((b: ArrayBuffer) => Promise.resolve(b))
    for (const v of [1, 2, 1, 3]) await blocks.decode('k', bytesOf(v), decoder)
    expect(blocks.stats()).toEqual({ kept: 2, decodes: 3 })
    // 1 was used after 2, so 2 went when 3 came.
    await blocks.decode('k', bytesOf(1), decoder)
    await blocks.decode('k', bytesOf(2), decoder)
    expect(decoder).toHaveBeenCalledTimes(4)

    const failing = vi.fn(() => Promise.reject(new Error('corrupt block')))
    await expect(blocks.decode('k', bytesOf(9), failing)).rejects.toThrow('corrupt block')
    await expect(blocks.decode('k', bytesOf(9), failing)).rejects.toThrow('corrupt block')
    expect(failing).toHaveBeenCalledTimes(2)
  })

  it('through geotiff.js: two map tiles inside one 512 px block decode it once', async () => {
    const dsm = buildConeDsm({
      epsg: 3857,
      ullr: [0, 1024, 1024, 0],
      widthPx: 1024,
      heightPx: 1024,
      baseM: 100,
      peakM: 10,
      radiusPx: 400,
    })
    const cog = path.join(path.dirname(dsm), 'dsm.cog.tif')
    // The viewing copy as the job writes an elevation model: 512 px DEFLATE blocks.
    await buildViewingCog(dsm, cog, 'elevation')
    const file = fs.readFileSync(cog)
    class FileClient extends BaseClient {
      override request(options: RequestInit = {}) {
        const [, from, to] = /bytes=(\d+)-(\d+)/.exec(new Headers(options.headers).get('Range')!)!
        const data = file.subarray(Number(from), Math.min(Number(to) + 1, file.length))
        return Promise.resolve(
          new (class extends BaseResponse {
            override get status() {
              return 206
            }
            override getHeader(name: string) {
              return name.toLowerCase() === 'content-range'
                ? `bytes ${from}-${Number(from) + data.length - 1}/${file.length}`
                : undefined
            }
            override getData() {
              return Promise.resolve(data.buffer.slice(data.byteOffset, data.byteOffset + data.length))
            }
          })(),
        )
      }
    }
    const tiff = await fromCustomClient(new FileClient('file://cog'), { allowFullFile: false })
    const blocks = createDecodedBlocks(8)
    const pool = decodingPool(blocks)
    const read = (window: number[]) =>
      tiff.getImage(0).then((image) => image.readRasters({ window, pool, samples: [0], interleave: false }))
    const left = (await read([0, 0, 256, 256])) as unknown as Float32Array[]
    const right = (await read([256, 0, 512, 256])) as unknown as Float32Array[]
    expect(blocks.stats().decodes).toBe(1)
    // The pixels are the cone's, not a copy of the other tile's.
    expect(left[0]![0]).toBeCloseTo(100, 3)
    expect(right[0]![255 * 256 + 255]).toBeGreaterThan(right[0]![0]!)
    fs.rmSync(path.dirname(dsm), { recursive: true, force: true })
  })
})
