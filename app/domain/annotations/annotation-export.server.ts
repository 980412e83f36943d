/**
 * A project's notes as a file a client takes into their own GIS or CAD: CSV (WKT), GeoJSON,
 * KML, a zipped Shapefile (one per geometry type: a shapefile holds one), DXF and GeoPackage,
 * in WGS84 or the project's own CRS (`project-crs.server.ts`), written by `ogr2ogr` through the GDAL
 * pool. Lengths, areas and volumes are columns (DXF carries geometry and layer names only; KML
 * is WGS84 by its standard).
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { GdalError, runGdal } from '#app/domain/deliverables/gdal.server.ts'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { User } from '#db/schema.ts'
import { strToU8, zipSync, type Zippable } from 'fflate'
import { z } from 'zod'

import { NOTE_EXPORT_FORMATS, type AnnotationView, type NoteExportFormat } from './annotation-schemas.ts'
import { annotationsOfProject } from './annotations.server.ts'
import { projectEpsg } from './project-crs.server.ts'

export const NoteExportQuerySchema = z.object({
  format: z.enum(NOTE_EXPORT_FORMATS, {
    message: `The format is ${NOTE_EXPORT_FORMATS.slice(0, -1).join(', ')} or ${NOTE_EXPORT_FORMATS.at(-1)}.`,
  }),
  crs: z.enum(['wgs84', 'project'], { message: "The crs is 'wgs84' or 'project'." }).default('wgs84'),
})
type NoteExportQuery = z.infer<typeof NoteExportQuerySchema>

const DRIVERS: Record<NoteExportFormat, { driver: string; ext: string; type: string }> = {
  csv: { driver: 'CSV', ext: 'csv', type: 'text/csv; charset=utf-8' },
  geojson: { driver: 'GeoJSON', ext: 'geojson', type: 'application/geo+json' },
  kml: { driver: 'KML', ext: 'kml', type: 'application/vnd.google-earth.kml+xml' },
  shp: { driver: 'ESRI Shapefile', ext: 'shp', type: 'application/zip' },
  dxf: { driver: 'DXF', ext: 'dxf', type: 'image/vnd.dxf' },
  gpkg: { driver: 'GPKG', ext: 'gpkg', type: 'application/geopackage+sqlite3' },
}

const EXPORT_TIMEOUT_MS = 60_000
const EXPORT_FAILED = 'The notes could not be exported. Please try again.'

/** A note's columns (at most 10 letters each: the shapefile's limit). */
function columnsOf(note: AnnotationView, crs: string) {
  const m = note.measurement
  return {
    id: note.id,
    kind: note.kind,
    title: note.title,
    note: note.note,
    color: note.color,
    author: note.authorName,
    created: note.createdAt,
    stockpile: note.stockpileKind,
    length_m: m.lengthM ?? null,
    area_m2: m.areaM2 ?? null,
    cut_m3: m.cutM3 ?? null,
    fill_m3: m.fillM3 ?? null,
    net_m3: m.netM3 ?? null,
    base: m.base ?? null,
    base_elev: m.baseElevationM ?? null,
    crs,
  }
}

function featureCollection(notes: AnnotationView[], properties: (n: AnnotationView) => object) {
  return JSON.stringify({
    type: 'FeatureCollection',
    features: notes.map((n) => ({ type: 'Feature', properties: properties(n), geometry: n.geometry })),
  })
}

async function ogr2ogr(user: Pick<User, 'id'>, args: string[], signal?: AbortSignal) {
  try {
    await runGdal('ogr2ogr', args, {
      owner: { accountId: user.id },
      signal,
      timeoutMs: EXPORT_TIMEOUT_MS,
    })
  } catch (error) {
    if (error instanceof DomainError) throw error
    if (error instanceof GdalError && error.aborted) throw new DomainError(400, 'The export was stopped.')
    throw new DomainError(422, EXPORT_FAILED)
  }
}

const SHAPE_LAYERS = [
  ['point', 'notes_points'],
  ['line', 'notes_lines'],
  ['polygon', 'notes_polygons'],
] as const

export type NoteExportFile = { body: Uint8Array; fileName: string; contentType: string; epsg: number }

/** The notes of a project this user is a member of (404 otherwise) as one file. */
export async function exportAnnotations(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  query: NoteExportQuery,
  { signal }: { signal?: AbortSignal } = {},
  db: DbOrTx = getDb(),
): Promise<NoteExportFile> {
  const project = requireVisibleProject(user, projectId, db)
  const notes = annotationsOfProject(projectId, db)
  // KML is WGS84 by its standard: its coordinates are never another CRS.
  const epsg = query.crs === 'wgs84' || query.format === 'kml' ? 4326 : projectEpsg(project, notes, db)
  const { driver, ext, type } = DRIVERS[query.format]
  const crsName = `EPSG:${epsg}`
  const fileName = `project-${projectId}-notes-epsg${epsg}.${query.format === 'shp' ? 'zip' : ext}`

  const dir = path.join(ensureStorage().tmp, `notes-${crypto.randomUUID()}`)
  await fs.mkdir(dir)
  try {
    const source = path.join(dir, 'source.geojson')
    // DXF has no attribute columns: the layer name carries the kind.
    const properties =
      query.format === 'dxf'
        ? (n: AnnotationView) => ({ Layer: `NOTES_${n.kind.toUpperCase()}` })
        : (n: AnnotationView) => columnsOf(n, crsName)
    await fs.writeFile(source, featureCollection(notes, properties))
    const common = ['-s_srs', 'EPSG:4326', '-t_srs', crsName, '-f', driver]
    if (query.format === 'shp') {
      const zip: Zippable = {}
      for (const [kind, layer] of SHAPE_LAYERS) {
        if (!notes.some((n) => n.kind === kind)) continue
        await ogr2ogr(
          user,
          [
            ...common,
            '-where',
            `kind = '${kind}'`,
            '-lco',
            'ENCODING=UTF-8',
            path.join(dir, `${layer}.shp`),
            source,
          ],
          signal,
        )
        for (const part of ['shp', 'shx', 'dbf', 'prj', 'cpg'])
          zip[`${layer}.${part}`] = await fs
            .readFile(path.join(dir, `${layer}.${part}`))
            .catch(() => strToU8(''))
      }
      if (!Object.keys(zip).length) zip['README.txt'] = strToU8('This project has no notes yet.\n')
      return { body: zipSync(zip, { level: 6 }), fileName, contentType: type, epsg }
    }
    const out = path.join(dir, `notes.${ext}`)
    const options =
      query.format === 'csv'
        ? ['-lco', 'GEOMETRY=AS_WKT']
        : query.format === 'geojson' && epsg === 4326
          ? ['-lco', 'RFC7946=YES']
          : []
    await ogr2ogr(user, [...common, ...options, '-nln', 'notes', out, source], signal)
    return { body: await fs.readFile(out), fileName, contentType: type, epsg }
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
}
