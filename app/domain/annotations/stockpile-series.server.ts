/**
 * A stockpile (or pit) over time: a polygon note marked so on a site is measured on every
 * survey of the site that has an elevation model, with the note's base, through the volume
 * engine. Each survey's figures are kept on the note (`measurement.series`) until its shape or
 * base changes, so a page shows the series without measuring again; a new elevation model is
 * measured by the view job (`annotation-remeasure.server.ts`), figures a page finds missing by a
 * background queue here. Who reads it: whoever may see
 * the site (its client, admins); others 404.
 */
import { countMeasure } from '#app/domain/deliverables/measure.server.ts'
import type { MeasureRun } from '#app/domain/deliverables/raster-measure.server.ts'
import { surveyDateOf } from '#app/domain/files/survey-dates.server.ts'
import { getSiteForUser, listSiteProjects } from '#app/domain/sites/site-access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { csvText } from '#app/lib/format/csv.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import {
  annotations,
  projects,
  type Annotation,
  type AnnotationBase,
  type Project,
  type ProjectFile,
  type StockpileKind,
  type StockpileMeasure,
  type User,
} from '#db/schema.ts'
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm'

import { latestElevationModel, ringOf, volumeOnModel } from './annotation-measure.server.ts'
import { ANNOTATION_MESSAGES } from './annotation-schemas.ts'
import { getAnnotation } from './annotations.server.ts'

registerStatefulModule('annotations/stockpile-series')

export type StockpilePoint = {
  projectId: number
  projectName: string
  fileId: number
  /** The survey's date: its completion, else its creation (ISO). */
  surveyedAt: string
  cutM3: number
  fillM3: number
  netM3: number
  /** Net: a stockpile's volume above its base (cut − fill), a pit's below it (fill − cut), m³. */
  volumeM3: number
  /** The base the volume stands on, and its height on this survey's model (m). */
  base: AnnotationBase
  baseElevationM: number
}

type SiteModel = { survey: Project; model: ProjectFile }

/** Each survey of a site with its newest elevation model, oldest survey first. */
export function siteModels(siteId: number, db: DbOrTx = getDb()): SiteModel[] {
  return listSiteProjects(siteId, db).flatMap((survey) => {
    const model = latestElevationModel(survey.id, db)
    return model ? [{ survey, model }] : []
  })
}

/** What a note's measurement depends on: a change to it means the stored figures are stale. */
export const shapeKey = (note: Pick<Annotation, 'geometry' | 'base' | 'baseElevationM'>) =>
  JSON.stringify([note.geometry, note.base, note.baseElevationM])

/** A survey's stored figures for a stockpile: its volume on the model, or "outside" when the polygon misses it. */
export function stockpileMeasureOf(
  fileId: number,
  v: Awaited<ReturnType<typeof volumeOnModel>>,
): StockpileMeasure {
  return v
    ? { fileId, cutM3: v.cutM3, fillM3: v.fillM3, netM3: v.netM3, baseElevationM: v.baseElevationM }
    : { fileId, outside: true }
}

/** Keeps new figures on the note, unless its shape or base changed meanwhile (its save measures afresh). */
function storeSeries(note: Annotation, fresh: StockpileMeasure[], keep: Set<number>, db: DbOrTx) {
  db.transaction((tx) => {
    const row = tx.select().from(annotations).where(eq(annotations.id, note.id)).get()
    if (!row || shapeKey(row) !== shapeKey(note)) return
    const merged = new Map((row.measurement.series ?? []).map((m) => [m.fileId, m]))
    for (const m of fresh) merged.set(m.fileId, m)
    const series = [...merged.values()].filter((m) => keep.has(m.fileId))
    tx.update(annotations)
      // Not an edit of the note: its updated time stays.
      .set({ measurement: { ...row.measurement, series }, updatedAt: row.updatedAt })
      .where(eq(annotations.id, note.id))
      .run()
  })
}

/**
 * A stockpile note's series over these survey models: figures kept on the note are used,
 * the others measured (`beforeMeasure` first: a signed-in reader's measure allowance) and kept.
 */
export async function seriesOf(
  note: Annotation,
  models: SiteModel[],
  run: MeasureRun,
  { beforeMeasure, db = getDb() }: { beforeMeasure?: () => Promise<void>; db?: DbOrTx } = {},
): Promise<StockpilePoint[]> {
  const base = note.base ?? 'edge-mean'
  const known = new Map((note.measurement.series ?? []).map((m) => [m.fileId, m]))
  const fresh: StockpileMeasure[] = []
  for (const { model } of models) {
    if (known.has(model.id)) continue
    await beforeMeasure?.()
    const ring = ringOf(note.geometry as GeoJSON.Polygon)
    const v = await volumeOnModel(run, model, ring, base, note.baseElevationM)
    const measure = stockpileMeasureOf(model.id, v)
    known.set(model.id, measure)
    fresh.push(measure)
  }
  if (fresh.length) storeSeries(note, fresh, new Set(models.map((m) => m.model.id)), db)
  return pointsFrom(note, models, known)
}

const surveyedAtOf = (survey: Project) => surveyDateOf(survey).toISOString()

/** The series from figures already known (a survey without figures, or missed by the polygon, is left out). */
function pointsFrom(note: Annotation, models: SiteModel[], known: Map<number, StockpileMeasure>) {
  const base = note.base ?? 'edge-mean'
  return models.flatMap(({ survey, model }): StockpilePoint[] => {
    const m = known.get(model.id)
    if (!m || 'outside' in m) return []
    return [
      {
        projectId: survey.id,
        projectName: survey.name,
        fileId: model.id,
        surveyedAt: surveyedAtOf(survey),
        cutM3: m.cutM3,
        fillM3: m.fillM3,
        netM3: m.netM3,
        volumeM3: note.stockpileKind === 'pit' ? 0 - m.netM3 : m.netM3,
        base,
        baseElevationM: m.baseElevationM,
      },
    ]
  })
}

function noteRow(annotationId: number, db: DbOrTx) {
  return db.select().from(annotations).where(eq(annotations.id, annotationId)).get()!
}

/** The note's volume on each survey of its site, oldest first (surveys the polygon misses are left out). */
export async function stockpileSeries(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  annotationId: number,
  { signal }: { signal?: AbortSignal } = {},
  db: DbOrTx = getDb(),
) {
  const note = getAnnotation(user, projectId, annotationId, db)
  if (note.kind !== 'polygon' || !note.stockpileKind) throw new DomainError(404, ANNOTATION_MESSAGES.notFound)
  const project = listProjectSite(projectId, db)
  const site = getSiteForUser(user, project.siteId, db)
  const points = await seriesOf(
    noteRow(annotationId, db),
    siteModels(site.id, db),
    { accountId: user.id, signal },
    { beforeMeasure: () => countMeasure(user.id), db },
  )
  return { annotation: note, site: { id: site.id, name: site.name }, points }
}

function listProjectSite(projectId: number, db: DbOrTx) {
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  if (!project?.siteId) throw new DomainError(404, 'This note’s project is not on a site.')
  return { ...project, siteId: project.siteId }
}

/** Every stockpile and pit note on a site's surveys, oldest first (no access check). */
export function stockpileNotesOfSite(siteId: number, db: DbOrTx = getDb()) {
  const surveyIds = listSiteProjects(siteId, db).map((p) => p.id)
  if (!surveyIds.length) return []
  return db
    .select()
    .from(annotations)
    .where(
      and(
        inArray(annotations.projectId, surveyIds),
        eq(annotations.kind, 'polygon'),
        isNotNull(annotations.stockpileKind),
      ),
    )
    .orderBy(asc(annotations.createdAt), asc(annotations.id))
    .all()
}

export type SiteStockpile = {
  id: number
  projectId: number
  title: string
  color: string
  stockpileKind: StockpileKind
  base: AnnotationBase
  points: StockpilePoint[]
  /** Surveys whose figures are not stored yet: measured in the background, shown on a later load. */
  unmeasured: { projectId: number; fileId: number; surveyedAt: string }[]
}

/**
 * The site page's stockpiles from the figures stored on each note: a page load never runs GDAL.
 * A survey not measured yet is listed as such and its measuring queued (`queueStockpileMeasures`).
 */
export function siteStockpiles(
  user: Pick<User, 'id' | 'role'>,
  siteId: number,
  db: DbOrTx = getDb(),
): SiteStockpile[] {
  const site = getSiteForUser(user, siteId, db)
  const models = siteModels(site.id, db)
  const result = stockpileNotesOfSite(site.id, db).map((note): SiteStockpile => {
    const known = new Map((note.measurement.series ?? []).map((m) => [m.fileId, m]))
    return {
      id: note.id,
      projectId: note.projectId,
      title: note.title,
      color: note.color,
      stockpileKind: note.stockpileKind!,
      base: note.base ?? 'edge-mean',
      points: pointsFrom(note, models, known),
      unmeasured: models
        .filter(({ model }) => !known.has(model.id))
        .map(({ survey, model }) => ({
          projectId: survey.id,
          fileId: model.id,
          surveyedAt: surveyedAtOf(survey),
        })),
    }
  })
  if (result.some((s) => s.unmeasured.length)) queueStockpileMeasures(site.id)
  return result
}

// Not app/lib/jobs: it only runs once-a-day tasks; this queue is on demand, one entry a site, bounded, stopped at shutdown.
/** Sites waiting for their stockpiles to be measured; past this many, a page load queues its site again later. */
const MAX_WAITING_SITES = 200
const waitingSites = new Set<number>()
let measuring: Promise<void> | null = null
let stopMeasuring = new AbortController()

/**
 * Measures a site's stockpiles on the surveys they have no figures for, in the background: one
 * site at a time per process, through the GDAL pool as a background conversion (bounded, timed).
 */
function queueStockpileMeasures(siteId: number) {
  if (stopMeasuring.signal.aborted || waitingSites.size >= MAX_WAITING_SITES) return
  waitingSites.add(siteId)
  measuring ??= measureWaitingSites().finally(() => {
    measuring = null
  })
}

async function measureWaitingSites() {
  // After the answer that queued it: the page goes out first.
  await new Promise((resolve) => setImmediate(resolve))
  const signal = stopMeasuring.signal
  for (const siteId of waitingSites) {
    waitingSites.delete(siteId)
    if (signal.aborted) return
    try {
      const db = getDb()
      const models = siteModels(siteId, db)
      for (const note of stockpileNotesOfSite(siteId, db))
        await seriesOf(note, models, { owner: 'conversion', signal }, { db })
    } catch (error) {
      if (!signal.aborted) console.error(`[stockpiles] site ${siteId} not measured`, error)
    }
  }
}

/** @public (tests, shutdown) Resolves once no site waits to be measured. */
export async function stockpileMeasuresIdle() {
  while (measuring) await measuring
}

/** Shutdown: the running measure's GDAL stops, the waiting sites are dropped (a page load queues them again). */
export async function stopStockpileMeasures() {
  stopMeasuring.abort()
  waitingSites.clear()
  await stockpileMeasuresIdle()
  stopMeasuring = new AbortController()
}

/** The series as CSV (one survey a line; a name cannot start a spreadsheet formula). */
export function stockpileCsv(points: StockpilePoint[]) {
  return csvText(
    [
      'surveyed_at',
      'project_id',
      'project_name',
      'file_id',
      'volume_m3',
      'cut_m3',
      'fill_m3',
      'net_m3',
      'base',
      'base_elevation_m',
    ],
    points.map((p) => [
      p.surveyedAt,
      p.projectId,
      p.projectName,
      p.fileId,
      p.volumeM3,
      p.cutM3,
      p.fillM3,
      p.netM3,
      p.base,
      p.baseElevationM,
    ]),
  )
}
