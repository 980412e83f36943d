/**
 * The all.zip importer refuses hostile archives before writing anything: a `..` entry, an
 * absolute name, a link, 10 GB of zeros claimed, 100,000 entries.
 */
import fs from 'node:fs'
import path from 'node:path'
import { jobFolder, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { projectFiles } from '#db/schema.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { lasBytes } from '#tests/helpers/rasters.ts'
import { writeZip, type ZipEntrySpec } from '#tests/helpers/zip-builder.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { importAllZip, ImportRefusedError } from './import.server.ts'
// The deliverable pipeline plugs into the files service as the server loads it (the LAS gets its viewing copy).
import '#app/domain/deliverables/pipeline.server.ts'

const LIMITS = { maxUnzippedBytes: 1024 ** 3, maxEntries: 50_000 }
const REPORT = { name: 'odm_report/report.pdf', data: Buffer.from('%PDF-1.4\n%%EOF\n') }

/** Every file under DATA_DIR now (to show a refused archive wrote nothing anywhere). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
}

async function importHostile(entries: ZipEntrySpec[], jobId: number) {
  const { admin, project } = await projectWithTeam({ status: 'in_progress' })
  const folder = jobFolder(jobId)
  fs.mkdirSync(folder, { recursive: true })
  const zipPath = path.join(folder, 'all.zip')
  await writeZip(zipPath, entries)
  const before = new Set(filesUnder(storagePaths().root))
  const outcome = await importAllZip({
    jobId,
    projectId: project.id,
    adminId: admin.user.id,
    zipPath,
    limits: LIMITS,
  }).catch((error: unknown) => error)
  const written = filesUnder(storagePaths().root).filter((f) => !before.has(f))
  const stored = getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()
  return { outcome, written, stored, folder }
}

describe('hostile all.zip', () => {
  test('a ../ entry is refused and nothing lands outside the job folder', async () => {
    const { outcome, written, stored, folder } = await importHostile(
      [REPORT, { name: '../../escaped.txt', data: Buffer.from('out') }],
      90_001,
    )
    expect(outcome).toBeInstanceOf(ImportRefusedError)
    expect((outcome as Error).message).toMatch(/invalid relative path/)
    expect(written).toEqual([])
    expect(stored).toEqual([])
    expect(fs.existsSync(path.resolve(folder, '../../escaped.txt'))).toBe(false)
  })

  test('an absolute name and a link are refused', async () => {
    const absolute = await importHostile(
      [REPORT, { name: '/etc/kestrel.txt', data: Buffer.from('x') }],
      90_002,
    )
    expect((absolute.outcome as Error).message).toMatch(/absolute path/)
    expect(absolute.written).toEqual([])
    const link = await importHostile(
      [{ name: 'odm_report/report.pdf', data: Buffer.from('/etc/passwd'), mode: 0o120777 }],
      90_003,
    )
    expect(link.outcome).toBeInstanceOf(ImportRefusedError)
    expect((link.outcome as Error).message).toMatch(/link/)
    expect(link.written).toEqual([])
    expect(link.stored).toEqual([])
  })

  test('10 GB of zeros claimed is refused before a byte is unpacked', async () => {
    const { outcome, written, stored } = await importHostile(
      [
        REPORT,
        {
          name: 'odm_orthophoto/odm_orthophoto.tif',
          data: Buffer.alloc(1024 * 1024),
          deflate: true,
          claimedSize: 10 * 1024 ** 3,
        },
      ],
      90_004,
    )
    expect(outcome).toBeInstanceOf(ImportRefusedError)
    expect((outcome as Error).message).toMatch(/more than 1073741824 bytes/)
    expect(written).toEqual([])
    expect(stored).toEqual([])
  })

  test('100,000 entries are refused', { timeout: 60_000 }, async () => {
    const entries: ZipEntrySpec[] = [REPORT]
    for (let i = 0; i < 100_000; i++) entries.push({ name: `3d_tiles/model/t${i}.b3dm` })
    const { outcome, written, stored } = await importHostile(entries, 90_005)
    expect(outcome).toBeInstanceOf(ImportRefusedError)
    expect((outcome as Error).message).toMatch(/100001 entries; at most 50000/)
    expect(written).toEqual([])
    expect(stored).toEqual([])
  })

  test('a good archive: known outputs become deliverables, unknown paths are skipped, 3d_tiles kept', async () => {
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    const folder = jobFolder(90_006)
    fs.mkdirSync(folder, { recursive: true })
    const zipPath = path.join(folder, 'all.zip')
    await writeZip(zipPath, [
      REPORT,
      { name: 'odm_report/shots.geojson', data: Buffer.from('{"type":"FeatureCollection","features":[]}') },
      { name: 'images.json', data: Buffer.from('[]') },
      { name: '3d_tiles/model/tileset.json', data: Buffer.from('{"asset":{"version":"1.0"}}') },
    ])
    const { deliverableIds: ids } = await importAllZip({
      jobId: 90_006,
      projectId: project.id,
      adminId: admin.user.id,
      zipPath,
      limits: LIMITS,
    })
    const stored = getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()
    expect(stored.map((f) => [f.originalName, f.deliverableKind, f.processingJobId])).toEqual([
      ['Processing report.pdf', 'report', 90_006],
      ['Camera positions.geojson', 'vector', 90_006],
    ])
    expect(ids).toEqual(stored.map((f) => f.id))
    expect(fs.readFileSync(path.join(folder, '3d_tiles/model/tileset.json'), 'utf8')).toContain('asset')
  })

  test('the accuracy ODM’s stats.json states goes on the measured products, not the report', async () => {
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    const folder = jobFolder(90_007)
    fs.mkdirSync(folder, { recursive: true })
    const zipPath = path.join(folder, 'all.zip')
    // ODM's shape (OpenSfM's gcp_errors, ODM's odm_processing_statistics), trimmed.
    const stats = {
      reconstruction_statistics: { has_gcp: true },
      gcp_errors: {
        error: { x: 0.02, y: 0.03, z: 0.05 },
        average_error: 0.06,
        details: [
          ...['g1', 'g2', 'g3', 'g4'].map((id) => ({
            id,
            role: 'gcp',
            error: { x: 0.01, y: 0.02, z: 0.03 },
          })),
          { id: 'c1', role: 'checkpoint', error: { x: 0.03, y: 0.04, z: 0.06 } },
          { id: 'c2', role: 'checkpoint', error: { x: 0.0, y: 0.05, z: -0.08 } },
        ],
      },
      odm_processing_statistics: { average_gsd: 2.74 },
    }
    await writeZip(zipPath, [
      REPORT,
      { name: 'odm_report/stats.json', data: Buffer.from(JSON.stringify(stats)) },
      { name: 'odm_georeferencing/odm_georeferenced_model.las', data: lasBytes() },
    ])
    await importAllZip({
      jobId: 90_007,
      projectId: project.id,
      adminId: admin.user.id,
      zipPath,
      limits: LIMITS,
    })
    const stored = getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()
    const cloud = stored.find((f) => f.deliverableKind === 'point_cloud')!
    // Check points only: horizontal √((0.05² + 0.05²)/2) = 0.05, vertical √((0.06² + 0.08²)/2).
    expect(cloud.accuracy).toEqual({
      horizontalRmseM: expect.closeTo(0.05, 6),
      verticalRmseM: expect.closeTo(Math.sqrt((0.06 ** 2 + 0.08 ** 2) / 2), 6),
      gcpCount: 4,
      checkpointCount: 2,
      gsdCm: 2.74,
      source: 'odm',
    })
    expect(stored.find((f) => f.deliverableKind === 'report')!.accuracy).toBeNull()
  })

  test('no ground control, or a stats.json that is not JSON: no statement', async () => {
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    for (const [jobId, data] of [
      [90_008, JSON.stringify({ gcp_errors: {}, odm_processing_statistics: { average_gsd: 3 } })],
      [90_009, '{"gcp_errors": {"details": ['],
    ] as const) {
      const folder = jobFolder(jobId)
      fs.mkdirSync(folder, { recursive: true })
      const zipPath = path.join(folder, 'all.zip')
      await writeZip(zipPath, [
        { name: 'odm_report/stats.json', data: Buffer.from(data) },
        { name: 'odm_georeferencing/odm_georeferenced_model.las', data: lasBytes() },
      ])
      await importAllZip({ jobId, projectId: project.id, adminId: admin.user.id, zipPath, limits: LIMITS })
    }
    const stored = getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()
    expect(stored.length).toBeGreaterThan(0)
    expect(stored.map((f) => f.accuracy)).toEqual(stored.map(() => null))
  })
})
