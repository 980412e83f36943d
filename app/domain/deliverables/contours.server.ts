/**
 * Contour lines of an elevation model for CAD and GIS: `gdal_contour` on the original model
 * (not its viewing copy), simplified to half a pixel so CAD and ogr2ogr do not choke on a
 * vertex per cell, every 5th level an index line, then written by `ogr2ogr` as GeoJSON, DXF
 * (3D polylines, index lines on their own layer), a zipped Shapefile, GeoPackage or KML. An
 * interval too fine for the model is refused with the figure. Results are kept beside the
 * model's viewing copies (`views/<fileId>/contours/`), one per interval, format and CRS.
 */
import crypto from 'node:crypto'
import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { ensureLocalFile } from '#app/lib/storage/file-cache.server.ts'
import type { User } from '#db/schema.ts'
import { zipSync, type Zippable } from 'fflate'

import { GdalError, runGdal } from './gdal.server.ts'
import { countMeasure, requireElevationModel } from './measure.server.ts'
import type { ContourFormat, ContourQuery } from './terrain-schemas.ts'

/** More levels than this over the model is a refused interval. */
const MAX_CONTOUR_LEVELS = 200
/** More vertices than this after simplifying is a refused interval. */
const MAX_CONTOUR_VERTICES = 2_000_000
const CONTOUR_TIMEOUT_MS = 120_000

const OUTPUTS: Record<ContourFormat, { driver: string; ext: string; type: string }> = {
  geojson: { driver: 'GeoJSON', ext: 'geojson', type: 'application/geo+json' },
  dxf: { driver: 'DXF', ext: 'dxf', type: 'image/vnd.dxf' },
  shp: { driver: 'ESRI Shapefile', ext: 'zip', type: 'application/zip' },
  gpkg: { driver: 'GPKG', ext: 'gpkg', type: 'application/geopackage+sqlite3' },
  kml: { driver: 'KML', ext: 'kml', type: 'application/vnd.google-earth.kml+xml' },
}

/** The layer's schema: `index` is a true/false field (GeoJSON writes it as a boolean). */
const TEMPLATE = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { elevation: 0.5, index: true },
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
    },
  ],
})

type Owner = Pick<User, 'id'>

/** Whose GDAL share the work runs in, and the ceiling a new file counts against (made once, then kept). */
export type ContourWork = { owner: Owner; count: () => Promise<void> }

async function gdalTool(user: Owner, tool: string, args: string[], signal?: AbortSignal) {
  try {
    return await runGdal(tool, args, { owner: { accountId: user.id }, signal, timeoutMs: CONTOUR_TIMEOUT_MS })
  } catch (error) {
    if (error instanceof DomainError) throw error
    if (error instanceof GdalError && error.aborted) throw new DomainError(400, 'The contours were stopped.')
    throw new DomainError(422, 'The contours could not be made from this elevation model.')
  }
}

type ModelFacts = { min: number; max: number; pixel: number; srs: string }

async function modelFacts(user: Owner, file: string, signal?: AbortSignal): Promise<ModelFacts> {
  const info = JSON.parse(await gdalTool(user, 'gdalinfo', ['-json', '-nomd', '-mm', file], signal)) as {
    geoTransform?: number[]
    bands?: { computedMin?: number; computedMax?: number }[]
    coordinateSystem?: { wkt?: string }
  }
  const band = info.bands?.[0]
  if (typeof band?.computedMin !== 'number' || typeof band.computedMax !== 'number')
    throw new DomainError(422, 'The elevation model has no heights to draw contours from.')
  const gt = info.geoTransform ?? [0, 1, 0, 0, 0, -1]
  return {
    min: band.computedMin,
    max: band.computedMax,
    pixel: Math.min(Math.hypot(gt[1] ?? 1, gt[4] ?? 0), Math.hypot(gt[2] ?? 0, gt[5] ?? 1)),
    srs: info.coordinateSystem?.wkt ?? '',
  }
}

/** How many contour levels an interval gives between the model's lowest and highest point. */
function contourLevels(min: number, max: number, interval: number) {
  return Math.max(0, Math.floor(max / interval) - Math.ceil(min / interval) + 1)
}

const metres = (value: number) => `${formatNumber(value, 2, { minDecimals: 0 })} m`

/**
 * The simplified contour layer of one interval (GeoPackage, the model's CRS), made once:
 * later calls for the same file and interval reuse it.
 */
async function contourLayer(user: Owner, model: string, dir: string, interval: number, signal?: AbortSignal) {
  const layer = path.join(dir, `${interval}m.gpkg`)
  if (await exists(layer)) return layer
  const facts = await modelFacts(user, model, signal)
  const levels = contourLevels(facts.min, facts.max, interval)
  if (levels > MAX_CONTOUR_LEVELS) {
    const least = (facts.max - facts.min) / MAX_CONTOUR_LEVELS
    throw new DomainError(
      422,
      `An interval of ${metres(interval)} gives ${formatNumber(levels)} contour levels between ${metres(facts.min)} and ${metres(facts.max)}; at most ${MAX_CONTOUR_LEVELS} are drawn. Choose ${metres(Math.ceil(least * 100) / 100)} or more.`,
    )
  }
  const work = path.join(ensureStorage().tmp, `contours-${crypto.randomUUID()}`)
  await fs.mkdir(work)
  try {
    const raw = path.join(work, 'raw.gpkg')
    await gdalTool(
      user,
      'gdal_contour',
      ['-q', '-a', 'elevation', '-i', String(interval), '-nln', 'contour', '-f', 'GPKG', model, raw],
      signal,
    )
    const simple = path.join(work, 'simple.gpkg')
    const template = path.join(work, 'template.geojson')
    await fs.writeFile(template, TEMPLATE)
    await gdalTool(
      user,
      'ogr2ogr',
      [
        '-f',
        'GPKG',
        simple,
        template,
        '-nln',
        'contours',
        '-nlt',
        'LINESTRING',
        '-a_srs',
        facts.srs,
        '-where',
        '1=0',
      ],
      signal,
    )
    await gdalTool(
      user,
      'ogr2ogr',
      [
        '-append',
        '-f',
        'GPKG',
        simple,
        raw,
        '-nln',
        'contours',
        // Half a pixel: the lines keep the model's detail without a vertex per cell.
        '-simplify',
        String(facts.pixel / 2),
        '-dialect',
        'SQLite',
        '-sql',
        `SELECT geom, elevation, (CAST(ROUND(elevation / ${interval}) AS INTEGER) % 5 = 0) AS "index" FROM contour`,
      ],
      signal,
    )
    const counted = await gdalTool(
      user,
      'ogrinfo',
      [
        '-q',
        '-ro',
        '-dialect',
        'SQLite',
        '-sql',
        'SELECT SUM(ST_NPoints(geom)) AS vertices FROM contours',
        simple,
      ],
      signal,
    )
    const vertices = Number(/vertices \(Integer\) = (\d+)/.exec(counted)?.[1] ?? 0)
    if (vertices > MAX_CONTOUR_VERTICES)
      throw new DomainError(
        422,
        `An interval of ${metres(interval)} gives ${formatNumber(vertices)} contour vertices; at most ${formatNumber(MAX_CONTOUR_VERTICES)} are drawn. Choose a wider interval.`,
      )
    await fs.rename(simple, layer)
    return layer
  } finally {
    await fs.rm(work, { recursive: true, force: true })
  }
}

async function exists(file: string) {
  return fs.stat(file).then(
    () => true,
    () => false,
  )
}

/** The layer written in one format and CRS (`project`: the model's own CRS; KML is always WGS84). */
async function writeFormat(
  user: Owner,
  layer: string,
  query: ContourQuery,
  out: string,
  signal?: AbortSignal,
) {
  const wgs84 = query.crs === 'wgs84' || query.format === 'kml'
  const reproject = wgs84 ? ['-t_srs', 'EPSG:4326'] : []
  const { driver } = OUTPUTS[query.format]
  const work = `${out}.${crypto.randomUUID()}.part`
  await fs.mkdir(work)
  try {
    const target = path.join(work, `contours.${query.format === 'shp' ? 'shp' : OUTPUTS[query.format].ext}`)
    const byFormat: Record<ContourFormat, string[]> = {
      geojson: wgs84 ? ['-lco', 'RFC7946=YES'] : [],
      // CAD: each line at its height (Z), the index lines on a layer of their own.
      dxf: [
        '-dim',
        'XYZ',
        '-zfield',
        'elevation',
        '-dialect',
        'SQLite',
        '-sql',
        `SELECT geom, elevation, CASE WHEN "index" THEN 'CONTOUR_INDEX' ELSE 'CONTOUR' END AS Layer FROM contours`,
      ],
      shp: ['-lco', 'ENCODING=UTF-8'],
      gpkg: [],
      kml: ['-dsco', 'NameField=elevation'],
    }
    await gdalTool(
      user,
      'ogr2ogr',
      ['-f', driver, ...reproject, ...byFormat[query.format], target, layer],
      signal,
    )
    if (query.format === 'shp') {
      const zip: Zippable = {}
      for (const name of await fs.readdir(work))
        zip[name] = new Uint8Array(await fs.readFile(path.join(work, name)))
      await fs.writeFile(path.join(work, 'contours.zip'), zipSync(zip))
      await fs.rename(path.join(work, 'contours.zip'), out)
    } else {
      await fs.rename(target, out)
    }
  } finally {
    await fs.rm(work, { recursive: true, force: true })
  }
}

export type ContourFile = { path: string; fileName: string; contentType: string; size: number }

/**
 * Contours of a stored elevation model (`stored`, its full path; `fileId` names its folder of
 * results), made once per interval, format and CRS; new work runs in `owner`'s GDAL share and `count`s.
 */
export async function contoursOfModel(
  { owner, count }: ContourWork,
  stored: string,
  fileId: number,
  query: ContourQuery,
  signal?: AbortSignal,
): Promise<ContourFile> {
  const dir = path.join(ensureStorage().views, String(fileId), 'contours')
  const { ext, type } = OUTPUTS[query.format]
  const crs = query.format === 'kml' ? 'wgs84' : query.crs
  const out = path.join(dir, `${query.interval}m-${crs}.${query.format}.${ext}`)
  const fileName = `contours-${query.interval}m-${crs === 'wgs84' ? 'wgs84' : 'project-crs'}.${ext}`
  if (!(await exists(out))) {
    await count()
    await fs.mkdir(dir, { recursive: true })
    const layer = await contourLayer(owner, await ensureLocalFile(stored), dir, query.interval, signal)
    await writeFormat(owner, layer, query, out, signal)
  }
  return { path: out, fileName, contentType: type, size: (await fs.stat(out)).size }
}

/**
 * Contours of an elevation deliverable this user may download (404 otherwise; 400 for another
 * kind of file), as a file on disk ready to stream.
 */
export function contourFile(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  fileId: number,
  query: ContourQuery,
  { signal }: { signal?: AbortSignal } = {},
  db: DbOrTx = getDb(),
): Promise<ContourFile> {
  const work = { owner: user, count: () => countMeasure(user.id) }
  return contoursOfModel(work, requireElevationModel(user, projectId, fileId, db), fileId, query, signal)
}

/** The contour file as the answer to a GET: an attachment, never cached by a shared cache. */
export function contourResponse(file: ContourFile) {
  return new Response(createReadableStreamFromReadable(createReadStream(file.path)), {
    headers: {
      'Content-Type': file.contentType,
      'Content-Length': String(file.size),
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
