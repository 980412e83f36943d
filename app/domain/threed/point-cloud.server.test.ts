import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { encodeLas, type LasPoint } from '../../../server/nodeodm-simulator/las.ts'
import { lasBytes } from '../../../tests/helpers/rasters.ts'
import { PointCloudError, readLasHeader, writeThinnedCopy } from './point-cloud.server.ts'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-cloud-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
const fixtures = path.resolve('tests/fixtures/pointclouds')

/** A 100 × 50 grid in UTM 34S, 1 m apart, red rising with x (0–255, as many writers store it). */
function gridLas(file: string) {
  const points: LasPoint[] = []
  for (let j = 0; j < 50; j++)
    for (let i = 0; i < 100; i++)
      points.push({
        x: 300_000 + i,
        y: 6_200_000 + j,
        z: 10 + j / 10,
        classification: 2,
        r: i * 2,
        g: 0,
        b: 0,
      })
  fs.writeFileSync(file, encodeLas(points, 32734, new Date('2026-11-01T00:00:00Z')))
  return points
}

function copyPoints(file: string) {
  const buf = fs.readFileSync(file)
  const count = buf.readUInt32LE(107)
  const offset = buf.readUInt32LE(96)
  const scale = [0, 1, 2].map((i) => buf.readDoubleLE(131 + i * 8))
  const origin = [0, 1, 2].map((i) => buf.readDoubleLE(155 + i * 8))
  return Array.from({ length: count }, (_, k) => {
    const at = offset + k * 26
    const [x, y, z] = [0, 1, 2].map((i) => buf.readInt32LE(at + i * 4) * scale[i]! + origin[i]!)
    return { x: x!, y: y!, z: z!, r: buf.readUInt16LE(at + 20) }
  })
}

describe('point cloud viewing copies', () => {
  it('thins a LAS over the point budget to the budget, evenly, every prefix spread', async () => {
    const source = path.join(dir, 'grid.las')
    const points = gridLas(source)
    const header = await readLasHeader(source)
    expect(header).toMatchObject({ pointCount: 5000, crs: 'EPSG:32734', copc: false, compressed: false })

    const out = path.join(dir, 'grid-copy.las')
    const { kept, total } = await writeThinnedCopy(source, out, { budget: 1000 })
    expect({ kept, total }).toEqual({ kept: 1000, total: 5000 })
    const copy = copyPoints(out)
    expect(copy).toHaveLength(1000)
    expect((await readLasHeader(out)).pointCount).toBe(1000)
    // Every 5th point of the file, each once.
    const keys = new Set(copy.map((p) => `${Math.round(p.x)},${Math.round(p.y)}`))
    expect(keys.size).toBe(1000)
    const expected = points.filter((_, i) => i % 5 === 4).map((p) => `${p.x},${p.y}`)
    expect([...keys].sort()).toEqual(expected.sort())
    // 8-bit colour is scaled to 16 bits.
    const sample = copy.find((p) => Math.round(p.x) === 300_099)!
    expect(sample.r).toBe(198 * 257)
    // The first 64 points read already span most of the grid both ways.
    const head = copy.slice(0, 64)
    const span = (values: number[]) => Math.max(...values) - Math.min(...values)
    expect(span(head.map((p) => p.x))).toBeGreaterThan(70)
    expect(span(head.map((p) => p.y))).toBeGreaterThan(35)
  })

  it('keeps every point of a cloud within the budget', async () => {
    const source = path.join(dir, 'small.las')
    gridLas(source)
    const { kept, total } = await writeThinnedCopy(source, path.join(dir, 'small-copy.las'))
    expect({ kept, total }).toEqual({ kept: 5000, total: 5000 })
  })

  it('reads a LAZ through laz-perf', async () => {
    const source = path.join(fixtures, 'ellipsoid.laz')
    const header = await readLasHeader(source)
    expect(header.compressed).toBe(true)
    const out = path.join(dir, 'ellipsoid-copy.las')
    const { kept, total } = await writeThinnedCopy(source, out, { budget: 20_000 })
    expect({ kept, total }).toEqual({ kept: 20_000, total: 100_000 })
    const copy = copyPoints(out)
    for (const p of copy.slice(0, 500)) {
      expect(p.x).toBeGreaterThanOrEqual(header.min[0] - 0.01)
      expect(p.x).toBeLessThanOrEqual(header.max[0] + 0.01)
      expect(p.z).toBeGreaterThanOrEqual(header.min[2] - 0.01)
    }
    expect(copy.some((p) => p.r > 0)).toBe(true)
  })

  it('refuses, in words, a LAZ that laz-perf cannot decompress', async () => {
    const source = path.join(dir, 'fake.laz')
    fs.writeFileSync(source, lasBytes(10, true))
    await expect(writeThinnedCopy(source, path.join(dir, 'fake-copy.las'))).rejects.toThrow(PointCloudError)
  })

  it('knows a COPC file and its CRS from the header', async () => {
    const header = await readLasHeader(path.join(fixtures, 'ellipsoid.copc.laz'))
    expect(header.copc).toBe(true)
    expect(header.pointCount).toBe(100_000)
    expect(header.crs).toMatch(/Pseudo-Mercator.*EPSG:3857/)
  })
})
