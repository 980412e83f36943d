/**
 * A completed project with a COPC point cloud and a magenta GLB model, stored as the upload path
 * and the view job leave them (the COPC's facts read from its header; the GLB made by obj2gltf
 * from an OBJ ZIP, as the job makes it), and how a journey counts what the 3D canvas drew.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { objZipToGlb } from '#app/domain/threed/model-copy.server.ts'
import { factsOf, readLasHeader } from '#app/domain/threed/point-cloud.server.ts'
import Database from 'better-sqlite3'
import proj4 from 'proj4'

import { encodePng } from '../../server/nodeodm-simulator/png.ts'
import { zipBytes } from '../helpers/rasters.ts'
import { e2eDir } from '../setup/e2e-env.ts'
import { seedPaidProject } from './admin-fixtures.ts'

const COPC = path.resolve('tests/fixtures/pointclouds/ellipsoid.copc.laz')

/** A 200 m × 200 m magenta plate with a ridge, as a GLB. */
async function magentaGlb() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-e2e-glb-'))
  const obj = [
    'mtllib m.mtl',
    'v -100 0 -100',
    'v 100 0 -100',
    'v 100 0 100',
    'v -100 0 100',
    'v 0 40 0',
    'vt 0 0',
    'vt 1 0',
    'vt 1 1',
    'vt 0 1',
    'usemtl plate',
    'f 1/1 5/3 2/2',
    'f 2/2 5/3 3/3',
    'f 3/3 5/3 4/4',
    'f 4/4 5/3 1/1',
  ].join('\n')
  const pixels = new Uint8Array(4 * 4 * 3)
  for (let i = 0; i < 16; i++) pixels.set([220, 40, 200], i * 3)
  const zip = path.join(dir, 'model.zip')
  fs.writeFileSync(
    zip,
    zipBytes({ 'm.obj': obj, 'm.mtl': 'newmtl plate\nmap_Kd t.png\n', 't.png': encodePng(4, 4, 3, pixels) }),
  )
  const out = path.join(dir, 'model.glb')
  await objZipToGlb(zip, out)
  return out
}

/**
 * The 4×4 (column-major) that 3D Tiles uses to stand a tile's local east-north-up frame at a
 * WGS84 point: the frame's axes and origin in earth-centred coordinates (proj4's geocentric),
 * as ODM's tiles are.
 */
function eastNorthUpToEarthCentred(latitude: number, longitude: number) {
  const [phi, lambda] = [(latitude * Math.PI) / 180, (longitude * Math.PI) / 180]
  const east = [-Math.sin(lambda), Math.cos(lambda), 0]
  const north = [-Math.sin(phi) * Math.cos(lambda), -Math.sin(phi) * Math.sin(lambda), Math.cos(phi)]
  const up = [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)]
  const origin = proj4('EPSG:4326', '+proj=geocent +datum=WGS84 +units=m +no_defs', [longitude, latitude, 0])
  return [...east, 0, ...north, 0, ...up, 0, ...origin, 1]
}

/**
 * An ODM job's `3d_tiles/` for the project's model: a tileset whose one tile is the model,
 * standing in Cape Town in earth-centred coordinates (ODM writes its tiles so).
 */
function seedJobTiles(db: Database.Database, root: string, projectId: number, modelId: number, glb: string) {
  const now = Date.now()
  const job = db
    .prepare(
      `insert into processing_jobs (project_id, preset, options, status, progress_percent, created_at, updated_at)
       values (?, 'standard', '{}', 'completed', 100, ?, ?) returning id`,
    )
    .get(projectId, now, now) as { id: number }
  db.prepare('update project_files set processing_job_id = ? where id = ?').run(job.id, modelId)
  const dir = path.join(root, 'processing', String(job.id), '3d_tiles')
  fs.mkdirSync(dir, { recursive: true })
  fs.copyFileSync(glb, path.join(dir, 'tile.glb'))
  const tileset = {
    asset: { version: '1.1' },
    geometricError: 500,
    root: {
      transform: eastNorthUpToEarthCentred(-33.92, 18.42),
      boundingVolume: { box: [0, 0, 20, 100, 0, 0, 0, 100, 0, 0, 0, 20] },
      geometricError: 0,
      refine: 'ADD',
      content: { uri: 'tile.glb' },
    },
  }
  fs.writeFileSync(path.join(dir, 'tileset.json'), JSON.stringify(tileset))
}

/**
 * `copc`: another COPC file instead of the fixture (the bench's 50-million-point one).
 * `tiles`: the model also comes as its job's 3D Tiles, which the view shows in its place.
 */
export async function seedThreeDProject(name: string, copc = COPC, { tiles = false } = {}) {
  const { projectId, clientEmail } = seedPaidProject(name)
  const root = path.join(e2eDir, 'files')
  const db = new Database(path.join(e2eDir, 'kestrel.sqlite'))
  db.pragma('busy_timeout = 5000')
  const glb = await magentaGlb()
  const facts = factsOf(await readLasHeader(copc))
  const ids: Record<string, number> = {}
  try {
    const now = Date.now()
    db.prepare(`update projects set status = 'completed', completed_at = ? where id = ?`).run(now, projectId)
    for (const [kind, file, mime, original] of [
      ['point_cloud', copc, 'application/vnd.laszip', 'Point cloud.copc.laz'],
      ['model_3d', glb, 'model/gltf-binary', '3D model.glb'],
    ] as const) {
      const key = `projects/${projectId}/${crypto.randomUUID()}${path.extname(file)}`
      fs.mkdirSync(path.join(root, path.dirname(key)), { recursive: true })
      fs.copyFileSync(file, path.join(root, key))
      const bytes = fs.readFileSync(file)
      const row = db
        .prepare(
          `insert into project_files (project_id, file_name, original_name, file_url, file_type, file_size, file_category,
             sha256, deliverable_kind, created_at)
           values (?, ?, ?, '', ?, ?, 'processed_deliverable', ?, ?, ?) returning id`,
        )
        .get(
          projectId,
          key,
          original,
          mime,
          bytes.length,
          crypto.createHash('sha256').update(bytes).digest('hex'),
          kind,
          now,
        ) as { id: number }
      if (kind === 'point_cloud') {
        fs.mkdirSync(path.join(root, 'views', String(row.id)), { recursive: true })
        fs.writeFileSync(path.join(root, 'views', String(row.id), 'facts.json'), JSON.stringify(facts))
      }
      db.prepare(
        `insert into deliverable_views (file_id, status, progress_percent, attempts, started_at, finished_at, created_at, updated_at)
         values (?, 'ready', 100, 1, ?, ?, ?, ?)`,
      ).run(row.id, now, now, now, now)
      ids[kind] = row.id
    }
    if (tiles) seedJobTiles(db, root, projectId, ids.model_3d!, glb)
  } finally {
    db.close()
  }
  return { projectId, clientEmail, cloudId: ids.point_cloud!, modelId: ids.model_3d! }
}

/** Pixels of the 3D canvas: all that are not the background, and the model's magenta ones. */
export async function threeDPixels(page: Page) {
  return page.evaluate(() => {
    const source = document.querySelector<HTMLCanvasElement>('[data-testid="three-d-canvas"]')
    if (!source) return { drawn: 0, magenta: 0 }
    const canvas = document.createElement('canvas')
    canvas.width = source.width
    canvas.height = source.height
    const context = canvas.getContext('2d')!
    context.drawImage(source, 0, 0)
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data
    let drawn = 0
    let magenta = 0
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!]
      if (Math.abs(r - 241) + Math.abs(g - 245) + Math.abs(b - 249) > 30) drawn++
      if (r > 120 && g < 90 && b > 110 && r - g > 80) magenta++
    }
    return { drawn, magenta }
  })
}
