/**
 * A later elevation model re-measures the notes (a step of the deliverable pipeline after the
 * model's viewing copy is made, added here when this module loads; through the GDAL pool as a
 * background conversion): the project's
 * polygon notes take their cut, fill and net on it when it is the project's newest model, and
 * every stockpile or pit on the project's site gets its figures for this survey.
 */
import { addStepAfterViewingCopy } from '#app/domain/deliverables/pipeline.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { annotations, projectFiles, projects } from '#db/schema.ts'
import { and, eq, isNotNull } from 'drizzle-orm'

import { latestElevationModel, ringOf, volumeOnModel, withoutVolume } from './annotation-measure.server.ts'
import {
  seriesOf,
  shapeKey,
  siteModels,
  stockpileMeasureOf,
  stockpileNotesOfSite,
} from './stockpile-series.server.ts'

/** What was measured again: the project's notes and the site's stockpiles. */
async function remeasureNotesOn(
  fileId: number,
  signal?: AbortSignal,
  db: DbOrTx = getDb(),
): Promise<{ notes: number; stockpiles: number }> {
  const file = db.select().from(projectFiles).where(eq(projectFiles.id, fileId)).get()
  const done = { notes: 0, stockpiles: 0 }
  if (!file || file.removedAt || file.deliverableKind !== 'elevation') return done
  // An older model arriving late changes nothing: notes stand on the newest.
  if (latestElevationModel(file.projectId, db)?.id !== file.id) return done
  const run = { owner: 'conversion' as const, signal }

  const polygons = db
    .select()
    .from(annotations)
    .where(
      and(
        eq(annotations.projectId, file.projectId),
        eq(annotations.kind, 'polygon'),
        isNotNull(annotations.base),
      ),
    )
    .all()
  for (const note of polygons) {
    const volume = await volumeOnModel(
      run,
      file,
      ringOf(note.geometry as GeoJSON.Polygon),
      note.base!,
      note.baseElevationM,
    )
    const changed = db.transaction((tx) => {
      const row = tx.select().from(annotations).where(eq(annotations.id, note.id)).get()
      // Edited while GDAL measured: its own save measured it on the newest model.
      if (!row || shapeKey(row) !== shapeKey(note)) return false
      const measurement = { ...withoutVolume(row.measurement), ...volume }
      // A stockpile's figures on this survey are these same ones.
      if (row.stockpileKind) {
        const point = stockpileMeasureOf(file.id, volume)
        measurement.series = [...(row.measurement.series ?? []).filter((m) => m.fileId !== file.id), point]
      }
      tx.update(annotations)
        .set({ measurement, updatedAt: row.updatedAt })
        .where(eq(annotations.id, note.id))
        .run()
      return true
    })
    if (changed) done.notes++
  }

  const siteId = db
    .select({ siteId: projects.siteId })
    .from(projects)
    .where(eq(projects.id, file.projectId))
    .get()?.siteId
  if (!siteId) return done
  const models = siteModels(siteId, db)
  for (const note of stockpileNotesOfSite(siteId, db)) {
    await seriesOf(note, models, run, { db })
    done.stockpiles++
  }
  return done
}

addStepAfterViewingCopy({ name: 're-measure notes', run: remeasureNotesOn })
