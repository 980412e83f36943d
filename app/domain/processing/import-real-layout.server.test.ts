/**
 * The import on the real archive's layout: every entry of NodeODM's test-mode all.zip
 * (names and sizes from real-all-zip.tsv, recorded from the real server), with real bytes
 * where the real archive has a real product and zeros elsewhere. Products are kept by path
 * and content; the empty and broken ones are skipped with their reasons; what the preset
 * needs decides whether the job may complete.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { absolutePathOf, jobFolder, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { zipEntryNames } from '#app/domain/files/zip-entries.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { processingJobs, projectFiles, type ProcessingPreset } from '#db/schema.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { buildRaster, lasBytes } from '#tests/helpers/rasters.ts'
import { REAL_SKIPS } from '#tests/helpers/real-archive.ts'
import { writeZip, type ZipEntrySpec } from '#tests/helpers/zip-builder.ts'
import { eq, inArray } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { encodePng } from '../../../server/nodeodm-simulator/png.ts'
import { realLayout } from '../../../server/nodeodm-simulator/real-layout.ts'
import { importAllZip } from './import.server.ts'

import '#app/domain/deliverables/pipeline.server.ts'

const LIMITS = { maxUnzippedBytes: 4 * 1024 ** 3, maxEntries: 50_000 }
// The sample's place: WGS 84 / UTM 15N, 212 × 212 pixels.
const UTM_15N = 32615
const ULLR: [number, number, number, number] = [576_500, 4_330_000, 576_510.6, 4_329_989.4]

/** Real products where NodeODM's sample has them; its 5-byte GLB as it is. */
function realBytes(): Record<string, Buffer> {
  const raster = (bands: number, type: 'Byte' | 'Float32') =>
    fs.readFileSync(
      buildRaster({
        epsg: UTM_15N,
        ullr: ULLR,
        widthPx: 212,
        heightPx: 212,
        bands,
        type,
        ...(type === 'Float32' ? { nodata: -9999, burn: [210] } : {}),
      }),
    )
  return {
    'odm_orthophoto/odm_orthophoto.tif': raster(4, 'Byte'),
    'odm_dem/dsm.tif': raster(1, 'Float32'),
    'odm_dem/dtm.tif': raster(1, 'Float32'),
    'odm_georeferencing/odm_georeferenced_model.laz': lasBytes(12, true),
    'odm_texturing/odm_textured_model_geo.glb': Buffer.from('glTF\n'),
    'odm_report/shots.geojson': Buffer.from(
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [-91.99, 39.1, 300] } }],
      }),
    ),
  }
}

/** The real listing, entry for entry: a directory stays a directory, a file its size of zeros unless real. */
function realArchiveEntries(overrides: Record<string, Buffer | null> = {}): ZipEntrySpec[] {
  const real = { ...realBytes(), ...overrides }
  const entries: ZipEntrySpec[] = []
  for (const { name, size } of realLayout()) {
    if (name.endsWith('/')) entries.push({ name, mode: 0o40755 })
    else if (real[name] === null) continue
    else entries.push({ name, data: real[name] ?? Buffer.alloc(size), deflate: true })
  }
  return entries
}

async function jobWithArchive(preset: ProcessingPreset, entries: ZipEntrySpec[]) {
  const team = await projectWithTeam({ status: 'in_progress' })
  const job = getDb()
    .insert(processingJobs)
    .values({ projectId: team.project.id, preset, options: {}, status: 'importing' })
    .returning()
    .get()
  const folder = jobFolder(job.id)
  fs.mkdirSync(folder, { recursive: true })
  const zipPath = path.join(folder, 'all.zip')
  await writeZip(zipPath, entries)
  const run = () =>
    importAllZip({
      jobId: job.id,
      projectId: team.project.id,
      adminId: team.admin.user.id,
      zipPath,
      limits: LIMITS,
      preset,
    })
  const stored = () =>
    getDb()
      .select()
      .from(projectFiles)
      .where(eq(projectFiles.projectId, team.project.id))
      .all()
      .map((f) => `${f.originalName}:${f.deliverableKind}`)
  const skipped = () =>
    getDb().select().from(processingJobs).where(eq(processingJobs.id, job.id)).get()!.skipped
  return { job, run, stored, skipped, folder }
}

describe('NodeODM’s real test-mode archive', () => {
  test('standard: the orthomosaic, DSM, DTM, LAZ and camera positions are kept; exactly the broken ones skipped', async () => {
    const { run, stored, skipped, folder } = await jobWithArchive('standard', realArchiveEntries())
    const result = await run()
    expect(result.skipped).toEqual(REAL_SKIPS)
    expect(skipped()).toEqual(REAL_SKIPS)
    expect(stored()).toEqual([
      'Orthomosaic.tif:orthomosaic',
      'DSM - surface model.tif:elevation',
      'DTM - terrain model.tif:elevation',
      'Point cloud.laz:point_cloud',
      'Camera positions.geojson:vector',
    ])
    expect(result.deliverableIds).toHaveLength(5)
    // Tile pyramids, mbtiles, logs, Potree: never unpacked; nothing is left staged.
    expect(fs.readdirSync(folder).sort()).toEqual(['all.zip'])
    expect(fs.readdirSync(storagePaths().tmp)).toEqual([])
  })

  test('fast-orthophoto completes on the same archive', async () => {
    const { run, stored } = await jobWithArchive('fast-orthophoto', realArchiveEntries())
    await run()
    expect(stored()).toContain('Orthomosaic.tif:orthomosaic')
  })

  test('full-3d: the sample has no readable model; the map products and the point cloud arrive, the model is a skip', async () => {
    const { run, stored, skipped } = await jobWithArchive('full-3d', realArchiveEntries())
    const result = await run()
    expect(skipped()).toEqual(REAL_SKIPS)
    expect(stored()).toEqual(
      expect.arrayContaining(['Orthomosaic.tif:orthomosaic', 'Point cloud.laz:point_cloud']),
    )
    expect(stored().some((s) => s.endsWith(':model_3d'))).toBe(false)
    expect(result.deliverableIds).toHaveLength(5)
  })

  test('full-3d without a readable point cloud (the LAZ gone, the LAS empty) fails naming it', async () => {
    const { run, stored } = await jobWithArchive(
      'full-3d',
      realArchiveEntries({ 'odm_georeferencing/odm_georeferenced_model.laz': null }),
    )
    await expect(run()).rejects.toThrow(
      /^The point cloud in the results is not a readable LAS\/LAZ point cloud$/,
    )
    expect(stored()).toEqual([])
  })

  test('a missing DSM and an unreadable one fail a standard job, each naming it', async () => {
    const missing = await jobWithArchive('standard', realArchiveEntries({ 'odm_dem/dsm.tif': null }))
    await expect(missing.run()).rejects.toThrow(/^The DSM is not in the results$/)
    expect(missing.stored()).toEqual([])

    // TIFF's magic, then garbage: it passes the first bytes and GDAL refuses it.
    const garbage = Buffer.concat([Buffer.from('II*\0'), crypto.randomBytes(4000)])
    const broken = await jobWithArchive('standard', realArchiveEntries({ 'odm_dem/dsm.tif': garbage }))
    await expect(broken.run()).rejects.toThrow(/^The DSM in the results is not a readable GeoTIFF$/)
    expect(broken.stored()).toEqual([])
    expect(broken.skipped()).toContainEqual({
      path: 'odm_dem/dsm.tif',
      reason: '4004 bytes: not a readable GeoTIFF',
    })
  })

  test('a 2 GiB entry whose first bytes are not its kind is never unpacked', async () => {
    // A megabyte that inflates, then bytes that do not: reading past the first bytes would fail the import.
    const start = Buffer.concat([Buffer.from('not a tiff'), crypto.randomBytes(1024 * 1024)])
    const body = Buffer.concat([
      zlib.deflateRawSync(start, { finishFlush: zlib.constants.Z_SYNC_FLUSH }),
      Buffer.alloc(64 * 1024, 0xff),
    ])
    const entries = realArchiveEntries({ 'odm_dem/dtm.tif': null })
    entries.push({ name: 'odm_dem/dtm.tif', precompressed: { body, size: 2 * 1024 ** 3 } })
    const { run, stored } = await jobWithArchive('standard', entries)
    const result = await run()
    expect(result.skipped).toContainEqual({
      path: 'odm_dem/dtm.tif',
      reason: '2147483648 bytes: not a GeoTIFF',
    })
    expect(stored()).not.toContain('DTM - terrain model.tif:elevation')
    expect(fs.readdirSync(storagePaths().tmp)).toEqual([])
  })

  test('no GLB: the OBJ with its MTL and the textures it names, zipped as one model; a bad texture is a skip', async () => {
    const obj =
      'mtllib odm_textured_model_geo.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nusemtl m0\nf 1/1 2/1 3/1\n'
    const mtl = 'newmtl m0\nKd 1 1 1\nmap_Kd texture_0.jpg\n\nnewmtl m1\nmap_Kd texture_1.jpg\n'
    const png = Buffer.from(encodePng(1, 1, 4, new Uint8Array([1, 2, 3, 255])))
    const { run, stored, skipped } = await jobWithArchive(
      'full-3d',
      realArchiveEntries({
        'odm_texturing/odm_textured_model_geo.glb': null,
        'odm_texturing/odm_textured_model_geo.obj': Buffer.from(obj),
        'odm_texturing/odm_textured_model_geo.mtl': Buffer.from(mtl),
        'odm_texturing/texture_0.jpg': png,
      }),
    )
    const { deliverableIds } = await run()
    expect(stored()).toContain('3D model (OBJ).zip:model_3d')
    const model = getDb()
      .select()
      .from(projectFiles)
      .where(inArray(projectFiles.id, deliverableIds))
      .all()
      .find((f) => f.deliverableKind === 'model_3d')!
    expect((await zipEntryNames(absolutePathOf(model)))?.sort()).toEqual([
      'odm_textured_model_geo.mtl',
      'odm_textured_model_geo.obj',
      'texture_0.jpg',
    ])
    expect(skipped()).toEqual([
      { path: 'odm_texturing/texture_1.jpg', reason: '0 bytes: empty' },
      { path: 'odm_report/report.pdf', reason: '0 bytes: empty' },
      { path: '3d_tiles/model/tileset.json', reason: '0 bytes: empty' },
      { path: '3d_tiles/pointcloud/tileset.json', reason: '0 bytes: empty' },
    ])
  })
})
