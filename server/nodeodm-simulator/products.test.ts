/**
 * What a simulated task hands back: all.zip in NodeODM's layout, each raster readable by
 * GDAL in the right UTM zone over the task's boundary (transparent / nodata outside it,
 * relief inside), a LAS point cloud in the same place, a valid GLB, the report and the
 * camera positions — every one marked SIMULATED PROCESSING.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { createTask, dronePhotos, nodeOdmCall, waitForTask } from '#tests/helpers/nodeodm.ts'
import { pdfText } from '#tests/helpers/pdf-text.ts'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { accuracyFromOdmStats } from '../../app/domain/processing/odm-stats.ts'
import { startNodeOdmSimulator, type NodeOdmSimulator } from './index.ts'
import { realLayout } from './real-layout.ts'

/** An L: the north-east quarter of its bounding box is outside. */
const L_SHAPE = [
  [18.4195, -33.931],
  [18.4235, -33.931],
  [18.4235, -33.9295],
  [18.4215, -33.9295],
  [18.4215, -33.928],
  [18.4195, -33.928],
  [18.4195, -33.931],
]
const INSIDE = [18.4205, -33.93] as const
const IN_THE_NOTCH = [18.4228, -33.9285] as const
const PHOTOS = 12

let sim: NodeOdmSimulator
let dir: string
let work: string
let files: Record<string, Uint8Array>
let uuid: string

// Asynchronous on purpose: the simulator answers from this same process.
const run = promisify(execFile)

async function gdalJson(file: string, ...args: string[]) {
  const { stdout } = await run('gdalinfo', ['-json', ...args, file], { encoding: 'utf8' })
  return JSON.parse(stdout) as {
    coordinateSystem: { wkt: string }
    wgs84Extent: { coordinates: number[][][] }
    cornerCoordinates: { upperLeft: number[]; lowerRight: number[] }
    bands: Array<{
      type: string
      colorInterpretation: string
      noDataValue?: number
      minimum?: number
      maximum?: number
      metadata?: Record<string, Record<string, string>>
    }>
    metadata: Record<string, Record<string, string>>
  }
}

async function valueAt(file: string, [lng, lat]: readonly [number, number], band = 1) {
  const { stdout: out } = await run(
    'gdallocationinfo',
    ['-valonly', '-b', String(band), '-wgs84', file, String(lng), String(lat)],
    {
      encoding: 'utf8',
    },
  )
  return Number(out.trim())
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodeodm-products-'))
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'nodeodm-products-out-'))
  sim = await startNodeOdmSimulator({ dataDir: dir })
  uuid = await createTask(sim.url, {
    name: 'Products',
    photos: dronePhotos(PHOTOS),
    batch: 5,
    options: [
      { name: 'dsm', value: true },
      { name: 'dtm', value: true },
      { name: 'boundary', value: JSON.stringify({ type: 'Polygon', coordinates: [L_SHAPE] }) },
    ],
  })
  const done = await waitForTask(sim.url, uuid)
  expect(done.status).toEqual({ code: 40 })
  const res = await fetch(`${sim.url}/task/${uuid}/download/all.zip`)
  files = unzipSync(new Uint8Array(await res.arrayBuffer()))
  for (const [name, bytes] of Object.entries(files)) {
    if (name.endsWith('/')) continue
    fs.mkdirSync(path.join(work, path.dirname(name)), { recursive: true })
    fs.writeFileSync(path.join(work, name), bytes)
  }
}, 90_000)

afterAll(async () => {
  await sim?.close()
  fs.rmSync(dir, { recursive: true, force: true })
  fs.rmSync(work, { recursive: true, force: true })
})

describe('a simulated task’s products', () => {
  it('all.zip holds the real archive’s layout, with the simulated products in place', () => {
    // Entry for entry as the real test-mode archive (directories, tiles, empty files), no LAZ (the LAS is the cloud), and ODM's stats.json.
    const real = realLayout()
      .map((e) => e.name)
      .filter((name) => name !== 'odm_georeferencing/odm_georeferenced_model.laz')
    expect(Object.keys(files).sort()).toEqual([...real, 'odm_report/stats.json'].sort())
    const sizeOf = (name: string) => files[name]!.length
    expect(sizeOf('odm_texturing/odm_textured_model_geo.glb')).toBeGreaterThan(1000)
    expect(sizeOf('odm_report/report.pdf')).toBeGreaterThan(1000)
    expect(sizeOf('odm_georeferencing/odm_georeferenced_model.las')).toBeGreaterThan(227)
    // What the simulator does not make keeps the real archive's size (0 bytes, "\n", tiles of zeros).
    expect(sizeOf('odm_texturing/odm_textured_model_geo.obj')).toBe(0)
    expect(Buffer.from(files['odm_orthophoto/odm_orthophoto.mbtiles']!).toString()).toBe('\n')
    expect(sizeOf('dsm_tiles/18/64084/169773.png')).toBe(75412)
    const images = JSON.parse(Buffer.from(files['images.json']!).toString()) as Array<{ filename: string }>
    expect(images.map((i) => i.filename).sort()).toEqual(dronePhotos(PHOTOS).map((p) => p.name))
    expect(Buffer.from(files['task_output.txt']!).toString()).toContain('SIMULATED PROCESSING')
  })

  it('the orthophoto is an RGBA GeoTIFF in UTM 34S over the boundary, transparent outside it', async () => {
    const file = path.join(work, 'odm_orthophoto/odm_orthophoto.tif')
    const info = await gdalJson(file)
    expect(info.coordinateSystem.wkt).toMatch(/ID\["EPSG",32734\]\]$/)
    expect(info.bands.map((b) => [b.type, b.colorInterpretation])).toEqual([
      ['Byte', 'Red'],
      ['Byte', 'Green'],
      ['Byte', 'Blue'],
      ['Byte', 'Alpha'],
    ])
    expect(info.metadata['']?.TIFFTAG_IMAGEDESCRIPTION).toMatch(/^SIMULATED PROCESSING/)
    // The extent is the boundary's box (to a pixel or two).
    const ring = info.wgs84Extent.coordinates[0]!
    const lngs = ring.map((p) => p[0]!)
    const lats = ring.map((p) => p[1]!)
    // UTM's grid is turned against lines of longitude here: its box is a little wider (< 20 m).
    const within = (value: number, edge: number, outward: 1 | -1) => {
      expect(value * outward).toBeGreaterThanOrEqual(edge * outward)
      expect(Math.abs(value - edge)).toBeLessThan(0.0002)
    }
    within(Math.min(...lngs), 18.4195, -1)
    within(Math.max(...lngs), 18.4235, 1)
    within(Math.min(...lats), -33.931, -1)
    within(Math.max(...lats), -33.928, 1)
    expect(await valueAt(file, INSIDE, 4)).toBe(255)
    expect(await valueAt(file, IN_THE_NOTCH, 4)).toBe(0)
    const [r, g, b] = await Promise.all([1, 2, 3].map((band) => valueAt(file, INSIDE, band)))
    expect(r! + g! + b!).toBeGreaterThan(0)
  })

  it('the DSM and DTM are Float32 with relief inside the boundary and nodata outside; the DSM stands on the DTM', async () => {
    const stats: Record<string, { min: number; max: number }> = {}
    for (const which of ['dsm', 'dtm']) {
      const file = path.join(work, `odm_dem/${which}.tif`)
      const info = await gdalJson(file, '-stats')
      expect(info.coordinateSystem.wkt).toMatch(/ID\["EPSG",32734\]\]$/)
      expect(info.bands).toHaveLength(1)
      expect(info.bands[0]).toMatchObject({ type: 'Float32', noDataValue: -9999 })
      expect(info.metadata['']?.TIFFTAG_IMAGEDESCRIPTION).toMatch(/^SIMULATED PROCESSING/)
      expect(await valueAt(file, IN_THE_NOTCH)).toBe(-9999)
      const inside = await valueAt(file, INSIDE)
      // The photos were taken 130 m above sea level, 90 m above the ground.
      expect(inside).toBeGreaterThan(30)
      expect(inside).toBeLessThan(80)
      const band = info.bands[0]!.metadata?.['']
      stats[which] = { min: Number(band?.STATISTICS_MINIMUM), max: Number(band?.STATISTICS_MAXIMUM) }
      expect(stats[which]!.max - stats[which]!.min).toBeGreaterThan(3)
    }
    expect(stats.dsm!.max).toBeGreaterThan(stats.dtm!.max)
    expect(stats.dsm!.min).toBeGreaterThanOrEqual(stats.dtm!.min)
  })

  it('the point cloud is LAS 1.2 in UTM 34S, within the orthophoto', async () => {
    const las = Buffer.from(files['odm_georeferencing/odm_georeferenced_model.las']!)
    expect(las.subarray(0, 4).toString()).toBe('LASF')
    expect([las[24], las[25]]).toEqual([1, 2])
    expect(las.subarray(58, 78).toString()).toBe('SIMULATED PROCESSING')
    const offsetToPoints = las.readUInt32LE(96)
    const format = las[104]
    const recordLength = las.readUInt16LE(105)
    const count = las.readUInt32LE(107)
    expect(format).toBe(2)
    expect(count).toBeGreaterThan(1000)
    expect(las.length).toBe(offsetToPoints + count * recordLength)
    // The GeoKeyDirectory VLR names EPSG:32734.
    expect(las.subarray(227 + 2, 227 + 17).toString()).toBe('LASF_Projection')
    const keys = las.subarray(227 + 54, offsetToPoints)
    const words = Array.from({ length: keys.length / 2 }, (_, i) => keys.readUInt16LE(i * 2))
    expect(words).toEqual(expect.arrayContaining([3072, 0, 1, 32734]))
    const ortho = await gdalJson(path.join(work, 'odm_orthophoto/odm_orthophoto.tif'))
    const [minX, maxY] = ortho.cornerCoordinates.upperLeft as [number, number]
    const [maxX, minY] = ortho.cornerCoordinates.lowerRight as [number, number]
    const [lasMaxX, lasMinX, lasMaxY, lasMinY] = [179, 187, 195, 203].map((o) => las.readDoubleLE(o))
    expect(lasMinX).toBeGreaterThanOrEqual(minX)
    expect(lasMaxX).toBeLessThanOrEqual(maxX)
    expect(lasMinY).toBeGreaterThanOrEqual(minY)
    expect(lasMaxY).toBeLessThanOrEqual(maxY)
  })

  it('the model is a glTF 2.0 binary whose accessors fit its buffer, textured with a PNG', () => {
    const glb = Buffer.from(files['odm_texturing/odm_textured_model_geo.glb']!)
    expect(glb.readUInt32LE(0)).toBe(0x46546c67)
    expect(glb.readUInt32LE(4)).toBe(2)
    expect(glb.readUInt32LE(8)).toBe(glb.length)
    const jsonLength = glb.readUInt32LE(12)
    expect(glb.readUInt32LE(16)).toBe(0x4e4f534a)
    const gltf = JSON.parse(glb.subarray(20, 20 + jsonLength).toString()) as {
      asset: { version: string; extras: { note: string } }
      accessors: Array<{ bufferView: number; count: number; type: string; componentType: number }>
      bufferViews: Array<{ byteOffset: number; byteLength: number }>
      buffers: Array<{ byteLength: number }>
      images: Array<{ bufferView: number; mimeType: string }>
    }
    expect(gltf.asset.version).toBe('2.0')
    expect(gltf.asset.extras.note).toMatch(/^SIMULATED PROCESSING/)
    const binStart = 20 + jsonLength + 8
    expect(glb.readUInt32LE(20 + jsonLength + 4)).toBe(0x004e4942)
    expect(glb.readUInt32LE(20 + jsonLength)).toBe(gltf.buffers[0]!.byteLength)
    const size = { SCALAR: 1, VEC2: 2, VEC3: 3 } as Record<string, number>
    for (const a of gltf.accessors) {
      const view = gltf.bufferViews[a.bufferView]!
      expect(a.count * size[a.type]! * 4).toBe(view.byteLength)
      expect(view.byteOffset + view.byteLength).toBeLessThanOrEqual(gltf.buffers[0]!.byteLength)
    }
    const vertices = gltf.accessors[0]!.count
    const indices = glb.subarray(
      binStart + gltf.bufferViews[3]!.byteOffset,
      binStart + gltf.bufferViews[3]!.byteOffset + gltf.bufferViews[3]!.byteLength,
    )
    for (let i = 0; i < indices.length; i += 4) expect(indices.readUInt32LE(i)).toBeLessThan(vertices)
    const image = gltf.bufferViews[gltf.images[0]!.bufferView]!
    expect(glb.subarray(binStart + image.byteOffset + 1, binStart + image.byteOffset + 4).toString()).toBe(
      'PNG',
    )
  })

  it('the report says SIMULATED PROCESSING; shots.geojson has a point per photo where it was taken', async () => {
    const text = await pdfText(files['odm_report/report.pdf']!)
    expect(text).toContain('SIMULATED PROCESSING')
    expect(text).toContain(String(PHOTOS))
    const shots = JSON.parse(Buffer.from(files['odm_report/shots.geojson']!).toString()) as {
      features: Array<{ geometry: { coordinates: number[] }; properties: { filename: string } }>
    }
    expect(shots.features).toHaveLength(PHOTOS)
    const first = shots.features.find((f) => f.properties.filename === 'DJI_0000.JPG')!
    expect(first.geometry.coordinates[0]).toBeCloseTo(18.4201, 4)
    expect(first.geometry.coordinates[1]).toBeCloseTo(-33.9301, 4)
    expect(first.geometry.coordinates[2]).toBeCloseTo(130, 0)
    // ODM's statistics without ground control: the importer states no accuracy from it.
    const stats = JSON.parse(Buffer.from(files['odm_report/stats.json']!).toString()) as unknown
    expect(stats).toMatchObject({ gcp_errors: {}, reconstruction_statistics: { has_gcp: false } })
    expect(accuracyFromOdmStats(stats)).toBeNull()
  })

  it('without a boundary the products cover the photos’ positions; fast-orthophoto makes no model and no DEMs', async () => {
    const id = await createTask(sim.url, {
      photos: dronePhotos(4),
      options: [{ name: 'fast-orthophoto', value: true }],
    })
    expect((await waitForTask(sim.url, id)).status).toEqual({ code: 40 })
    const zip = unzipSync(
      new Uint8Array(await (await fetch(`${sim.url}/task/${id}/download/all.zip`)).arrayBuffer()),
    )
    // NodeODM's 5-byte stand-in, as in its own archive; no DEMs at all.
    expect(Buffer.from(zip['odm_texturing/odm_textured_model_geo.glb']!).toString()).toBe('glTF\n')
    expect(Object.keys(zip)).not.toContain('odm_dem/dsm.tif')
    const file = path.join(work, 'fast.tif')
    fs.writeFileSync(file, zip['odm_orthophoto/odm_orthophoto.tif']!)
    // Each photo's position is inside the orthophoto, with colour.
    for (const photo of [
      [18.4201, -33.9301],
      [18.4201 + 3 * 0.00015, -33.9301 + 3 * 0.00012],
    ] as const)
      expect(await valueAt(file, photo, 4)).toBe(255)
    const ext = (await gdalJson(file)).wgs84Extent.coordinates[0]!
    expect(Math.min(...ext.map((p) => p[0]!))).toBeLessThan(18.4201)
    expect(Math.max(...ext.map((p) => p[0]!))).toBeGreaterThan(18.4201 + 3 * 0.00015)
  })

  it('photos without a position and no boundary: the task fails with a reason', async () => {
    const noGps = { name: 'plain.jpg', bytes: Buffer.from(dronePhotos(1)[0]!.bytes.subarray(0, 2)) }
    const id = await createTask(sim.url, { photos: [noGps] })
    const info = await waitForTask(sim.url, id)
    expect(info.status.code).toBe(30)
    expect(info.status.errorMessage).toMatch(/cannot be georeferenced/)
    const output = (await nodeOdmCall(`${sim.url}/task/${id}/output?line=-3`)).json as unknown as string[]
    expect(output.join('\n')).toMatch(/cannot be georeferenced/)
  })
})
