/**
 * A note's measurement: a line's length, a polygon's area and perimeter (turf, as the Map
 * view's measure tools), and for a polygon on a project with an elevation model its cut, fill
 * and net volume from the note's base (the volume engine, `raster-measure.server.ts`).
 */
import { lineString, area as turfArea, length as turfLength, polygon as turfPolygon } from '@turf/turf'
import type { VolumeBase } from '#app/domain/deliverables/measure-schemas.ts'
import { countMeasure } from '#app/domain/deliverables/measure.server.ts'
import { round, volumeOver, type MeasureRun } from '#app/domain/deliverables/raster-measure.server.ts'
import { readableDeliverables } from '#app/domain/deliverables/readable-deliverables.server.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import { type AnnotationBase, type AnnotationMeasurement, type ProjectFile, type User } from '#db/schema.ts'

import type { AnnotationGeometry } from './annotation-schemas.ts'

type Actor = Pick<User, 'id' | 'role'>

/** The engine's base for a note's choice (a typed height carries its metres). */
export function volumeBaseOf(base: AnnotationBase, baseElevationM: number | null): VolumeBase {
  if (base === 'typed') return { elevationM: baseElevationM ?? 0 }
  return base
}

/** The newest elevation model of a project still on disk that GDAL could read (null: none). */
export function latestElevationModel(projectId: number, db: DbOrTx = getDb()) {
  return readableDeliverables([projectId], { kind: 'elevation', newestFirst: true }, db)[0] ?? null
}

/** Length and area of a geometry (no GDAL). */
function shapeMeasurement(geometry: AnnotationGeometry): AnnotationMeasurement {
  if (geometry.type === 'LineString')
    return { lengthM: round(turfLength(lineString(geometry.coordinates), { units: 'meters' }), 2) }
  if (geometry.type === 'Polygon') {
    const ring = geometry.coordinates[0]!
    return {
      areaM2: round(turfArea(turfPolygon([ring])), 2),
      lengthM: round(turfLength(lineString(ring), { units: 'meters' }), 2),
    }
  }
  return {}
}

/** Cut, fill and net of a ring on one elevation model; null when the ring misses the model. */
export async function volumeOnModel(
  run: MeasureRun,
  file: Pick<ProjectFile, 'id' | 'fileName'>,
  ring: [number, number][],
  base: AnnotationBase,
  baseElevationM: number | null,
): Promise<VolumeMeasurement | null> {
  try {
    const figures = await withLocalFile(absolutePathOf(file), (local) =>
      volumeOver(run, local, ring, volumeBaseOf(base, baseElevationM)),
    )
    return {
      cutM3: figures.cutM3,
      fillM3: figures.fillM3,
      netM3: figures.netM3,
      base,
      baseElevationM: figures.baseElevationM,
      fileId: file.id,
    }
  } catch (error) {
    // Outside the model or an unreadable file: the note keeps its length and area.
    if (isDomainError(error, 400) || isDomainError(error, 422)) {
      if (run.signal?.aborted) throw error
      return null
    }
    throw error
  }
}

type VolumeMeasurement = Required<
  Pick<AnnotationMeasurement, 'cutM3' | 'fillM3' | 'netM3' | 'base' | 'baseElevationM' | 'fileId'>
>

/** A note's length and area without the volume of an earlier model (what a new model replaces). */
export function withoutVolume({
  cutM3: _cut,
  fillM3: _fill,
  netM3: _net,
  base: _base,
  baseElevationM: _height,
  fileId: _file,
  ...shape
}: AnnotationMeasurement): AnnotationMeasurement {
  return shape
}

export function ringOf(geometry: GeoJSON.Polygon) {
  return geometry.coordinates[0]!.map((p) => [p[0]!, p[1]!] as [number, number])
}

/** What a note measures when it is saved. */
export async function measureAnnotation(
  user: Actor,
  projectId: number,
  note: { geometry: AnnotationGeometry; base: AnnotationBase | null; baseElevationM: number | null },
  { signal }: { signal?: AbortSignal } = {},
  db: DbOrTx = getDb(),
): Promise<AnnotationMeasurement> {
  const shape = shapeMeasurement(note.geometry)
  if (note.geometry.type !== 'Polygon' || !note.base) return shape
  const model = latestElevationModel(projectId, db)
  if (!model) return shape
  await countMeasure(user.id)
  const run = { accountId: user.id, signal }
  const volume = await volumeOnModel(run, model, ringOf(note.geometry), note.base, note.baseElevationM)
  return { ...shape, ...volume }
}
