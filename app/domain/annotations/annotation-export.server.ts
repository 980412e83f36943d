/**
 * A project's notes as a file a client takes into their own GIS or CAD: CSV (WKT), GeoJSON,
 * KML, a zipped Shapefile (one per geometry type: a shapefile holds one), DXF and GeoPackage,
 * in WGS84 or the project's own CRS (`project-crs.server.ts`), written by `ogr2ogr`.
 * Bounded whatever the notes: the GDAL slot is taken before anything is built, the notes are
 * read a page at a time and streamed into ogr2ogr's stdin (GeoJSONSeq), and the file it writes
 * is streamed to the client from disk, then removed. Details per format: KML placemarks carry
 * the title, the note and the note's colour; DXF titles are TEXT entities and its CRS is
 * stated (a Lo system's axes too); a shapefile's text cut at 254 bytes is in full in a .txt
 * beside it; CSV text never starts a formula.
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { GdalError, runGdalWithInput } from '#app/domain/deliverables/gdal.server.ts'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { tempFileStream } from '#app/lib/storage/temp-file-stream.server.ts'
import type { AnnotationKind, User } from '#db/schema.ts'
import { z } from 'zod'

import { NOTE_EXPORT_FORMATS, type NoteExportFormat } from './annotation-schemas.ts'
import { countAnnotations, eachAnnotation } from './annotations.server.ts'
import { crsNote, finishDxf, loZoneOf } from './dxf-text.server.ts'
import { featureLines, propertiesFor } from './export-features.server.ts'
import { projectEpsg } from './project-crs.server.ts'
import { zipShapefiles } from './shapefile-zip.server.ts'

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
  kml: { driver: 'LIBKML', ext: 'kml', type: 'application/vnd.google-earth.kml+xml' },
  shp: { driver: 'ESRI Shapefile', ext: 'shp', type: 'application/zip' },
  dxf: { driver: 'DXF', ext: 'dxf', type: 'image/vnd.dxf' },
  gpkg: { driver: 'GPKG', ext: 'gpkg', type: 'application/geopackage+sqlite3' },
}

const SHAPE_LAYERS = [
  ['point', 'notes_points'],
  ['line', 'notes_lines'],
  ['polygon', 'notes_polygons'],
] as const

const EXPORT_TIMEOUT_MS = 120_000
const EXPORT_FAILED = 'The notes could not be exported. Please try again.'
/** /vsistdin/ keeps this much so GDAL can read the features twice (fields, then rows): 500 notes of 1000 corners fit. */
const STDIN_BUFFER_BYTES = 64 * 1024 * 1024

export type NoteExportFile = {
  body: ReadableStream<Uint8Array>
  fileName: string
  contentType: string
  epsg: number
}

type Run = { user: Pick<User, 'id'>; signal?: AbortSignal; projectId: number; db: DbOrTx }

/**
 * One ogr2ogr run over the project's notes (of one kind when asked) into `out`. The slot comes
 * first; only then are the notes read, a page at a time, as the pipe takes them.
 */
async function ogr2ogr(run: Run, args: string[], out: string, lines: () => Iterable<string>, empty: boolean) {
  // An empty GeoJSONSeq is no dataset to GDAL: no notes are an empty FeatureCollection.
  const source = empty ? '/vsistdin/' : 'GeoJSONSeq:/vsistdin/'
  const input = empty ? () => ['{"type":"FeatureCollection","features":[]}'] : lines
  try {
    await runGdalWithInput(
      'ogr2ogr',
      ['--config', 'CPL_VSISTDIN_BUFFER_LIMIT', String(STDIN_BUFFER_BYTES), ...args, out, source],
      { owner: { accountId: run.user.id }, signal: run.signal, timeoutMs: EXPORT_TIMEOUT_MS },
      input,
    )
  } catch (error) {
    if (error instanceof DomainError) throw error
    if (error instanceof GdalError && error.aborted) throw new DomainError(400, 'The export was stopped.')
    console.error('[notes export]', error)
    throw new DomainError(422, EXPORT_FAILED)
  }
}

/** The notes of a project this user is a member of (404 otherwise) as one streamed file. */
export async function exportAnnotations(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  query: NoteExportQuery,
  { signal }: { signal?: AbortSignal } = {},
  db: DbOrTx = getDb(),
): Promise<NoteExportFile> {
  const project = requireVisibleProject(user, projectId, db)
  const first = eachAnnotation(projectId, undefined, db).next()
  const firstNote = first.done ? null : first.value
  // KML is WGS84 by its standard: its coordinates are never another CRS.
  const epsg =
    query.crs === 'wgs84' || query.format === 'kml'
      ? 4326
      : projectEpsg(project, firstNote ? [firstNote] : [], db)
  const { driver, ext, type } = DRIVERS[query.format]
  const fileName = `project-${projectId}-notes-epsg${epsg}.${query.format === 'shp' ? 'zip' : ext}`
  const run: Run = { user, signal, projectId, db }
  const dir = path.join(ensureStorage().tmp, `notes-${crypto.randomUUID()}`)
  await fs.mkdir(dir)
  try {
    const out = await writeExport(run, query.format, epsg, dir, { driver, ext, hasNotes: Boolean(firstNote) })
    return { body: tempFileStream(out, dir), fileName, contentType: type, epsg }
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true })
    throw error
  }
}

async function writeExport(
  run: Run,
  format: NoteExportFormat,
  epsg: number,
  dir: string,
  { driver, ext, hasNotes }: { driver: string; ext: string; hasNotes: boolean },
) {
  const crsName = `EPSG:${epsg}`
  const common = ['-s_srs', 'EPSG:4326', '-t_srs', crsName, '-f', driver]
  const properties = propertiesFor(format, crsName, epsg === 4326 ? 1.5 / 111_320 : 1.5)
  const notes = (kind?: AnnotationKind) => () => eachAnnotation(run.projectId, kind, run.db)
  if (format === 'shp') {
    const layers: { layer: string; kind: AnnotationKind }[] = []
    for (const [kind, layer] of SHAPE_LAYERS) {
      if (!countAnnotations(run.projectId, kind, run.db)) continue
      await ogr2ogr(
        run,
        [...common, '-lco', 'ENCODING=UTF-8', '-nln', layer],
        path.join(dir, `${layer}.shp`),
        () => featureLines(notes(kind)(), properties),
        false,
      )
      layers.push({ layer, kind })
    }
    return zipShapefiles(dir, layers, notes())
  }
  const options =
    format === 'csv'
      ? ['-lco', 'GEOMETRY=AS_WKT']
      : format === 'geojson' && epsg === 4326
        ? ['-lco', 'RFC7946=YES']
        : format === 'kml'
          ? ['--config', 'LIBKML_NAME_FIELD', 'title', '--config', 'LIBKML_DESCRIPTION_FIELD', 'note']
          : []
  const out = path.join(dir, format === 'dxf' ? 'gdal.dxf' : `notes.${ext}`)
  // A Lo system's axes are said in the drawing itself, by the first note.
  const extra = format === 'dxf' && loZoneOf(epsg) ? [{ layer: 'NOTES_CRS', text: crsNote(epsg) }] : []
  await ogr2ogr(
    run,
    [...common, ...options, '-nln', 'notes'],
    out,
    () => featureLines(notes()(), properties, extra),
    !hasNotes,
  )
  if (format !== 'dxf') return out
  const finished = path.join(dir, 'notes.dxf')
  await finishDxf(out, finished, epsg)
  return finished
}
