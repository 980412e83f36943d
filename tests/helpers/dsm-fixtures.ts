/**
 * Real elevation GeoTIFFs built with GDAL for the measure tests: a flat ground at 100 m with
 * one cone of known volume, written as an ASCII grid and turned into a Float32 GeoTIFF in
 * the CRS asked for (UTM 34S, or a Hartebeesthoek94 Lo system with westing/southing axes).
 */
import { execFile } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { getDb } from '#app/domain/db/db.server.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { projectFiles, type DeliverableKind } from '#db/schema.ts'

const run = promisify(execFile)

export const CONE = { groundM: 100, heightM: 10, radiusM: 20 } as const
/** π r² h / 3 */
export const CONE_VOLUME_M3 = (Math.PI * CONE.radiusM ** 2 * CONE.heightM) / 3
const NODATA = -9999
const PIXEL_M = 0.25
const SIZE_PX = 320
/** The apex sits off the raster's centre, so a mirrored or misplaced raster misses it. */
const APEX_PX = { col: 110, row: 140 }

/** WGS84 [lng, lat] pairs → another CRS (or the reverse), through GDAL itself. */
export async function transformPoints(points: [number, number][], from: string, to: string) {
  const child = run('gdaltransform', ['-s_srs', from, '-t_srs', to, '-output_xy'], { encoding: 'utf8' })
  child.child.stdin!.end(points.map(([x, y]) => `${x} ${y}`).join('\n') + '\n')
  const { stdout } = await child
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number])
}

export type ConeDsm = {
  path: string
  /** The apex in WGS84. */
  apex: { lat: number; lng: number }
  /** A 48-sided ring of radius `ringRadiusM` around the apex, WGS84 [lng, lat], closed. */
  ring: [number, number][]
  ringRadiusM: number
  /** Area of that ring in the raster's plane (m²). */
  ringAreaM2: number
  /** A point on the flat ground, 25 m east of the apex (WGS84). */
  ground: { lat: number; lng: number }
}

/**
 * Builds the cone DSM in `dir` near Cape Town (18.42 E, 33.92 S). A 2 m square of nodata lies
 * inside the ring on flat ground (it must change nothing but the skipped count).
 */
export async function buildConeDsm(dir: string, epsg: number, name = `cone-${epsg}.tif`): Promise<ConeDsm> {
  const srs = `EPSG:${epsg}`
  const [[apexX, apexY]] = (await transformPoints([[18.42, -33.92]], 'EPSG:4326', srs)) as [[number, number]]
  // Column grows with the first axis, rows go down the second: for a Lo system (westing,
  // southing) the picture is turned round compared with a map, which GDAL must place right.
  const xll = apexX - (APEX_PX.col + 0.5) * PIXEL_M
  const yTop = apexY + (APEX_PX.row + 0.5) * PIXEL_M
  const yll = yTop - SIZE_PX * PIXEL_M
  const rows: string[] = []
  for (let row = 0; row < SIZE_PX; row++) {
    const values: string[] = []
    for (let col = 0; col < SIZE_PX; col++) {
      const x = xll + (col + 0.5) * PIXEL_M
      const y = yTop - (row + 0.5) * PIXEL_M
      const r = Math.hypot(x - apexX, y - apexY)
      const inHole = x - apexX > 21 && x - apexX < 23 && Math.abs(y - apexY) < 1
      const z = inHole ? NODATA : CONE.groundM + Math.max(0, CONE.heightM * (1 - r / CONE.radiusM))
      values.push(z.toFixed(4))
    }
    rows.push(values.join(' '))
  }
  const asc = path.join(dir, name.replace(/\.tif$/, '.asc'))
  await fs.writeFile(
    asc,
    `ncols ${SIZE_PX}\nnrows ${SIZE_PX}\nxllcorner ${xll}\nyllcorner ${yll}\ncellsize ${PIXEL_M}\nNODATA_value ${NODATA}\n${rows.join('\n')}\n`,
  )
  const out = path.join(dir, name)
  await run('gdal_translate', [
    '-q',
    '-of',
    'GTiff',
    '-ot',
    'Float32',
    '-a_srs',
    srs,
    '-co',
    'TILED=YES',
    asc,
    out,
  ])
  await fs.rm(asc)

  const ringRadiusM = 25
  const sides = 48
  const projected: [number, number][] = []
  for (let i = 0; i < sides; i++) {
    const angle = (2 * Math.PI * i) / sides
    projected.push([apexX + ringRadiusM * Math.cos(angle), apexY + ringRadiusM * Math.sin(angle)])
  }
  const ring = await transformPoints(projected, srs, 'EPSG:4326')
  ring.push(ring[0]!)
  return {
    path: out,
    apex: { lat: -33.92, lng: 18.42 },
    ring,
    ringRadiusM,
    ringAreaM2: 0.5 * sides * ringRadiusM ** 2 * Math.sin((2 * Math.PI) / sides),
    ground: { lat: -33.92, lng: 18.42 + 25 / 92_370 },
  }
}

/** Stores a built raster as a project's deliverable of this kind (the row the upload path would write). */
export async function storeRasterDeliverable(
  projectId: number,
  source: string,
  kind: DeliverableKind,
  uploadedBy: number,
) {
  const key = `projects/${projectId}/${crypto.randomUUID()}.tif`
  const target = path.join(storagePaths().root, key)
  await fs.mkdir(path.dirname(target), { recursive: true })
  await fs.copyFile(source, target)
  const { size } = await fs.stat(target)
  return getDb()
    .insert(projectFiles)
    .values({
      projectId,
      fileName: key,
      originalName: path.basename(source),
      fileUrl: '',
      fileType: 'image/tiff',
      fileSize: size,
      fileCategory: 'processed_deliverable',
      uploadedBy,
      deliverableKind: kind,
    })
    .returning()
    .get()
}
