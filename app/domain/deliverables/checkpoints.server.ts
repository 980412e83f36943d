/**
 * Accuracy a client can show: surveyed checkpoints against an elevation model. Each point's
 * surveyed height is compared with the model's there (bilinear, in the model's own grid):
 * dz = model − surveyed; the report gives the vertical RMSE, the mean error and the ASPRS
 * Positional Accuracy Standards (edition 2, 2024) vertical class it meets, with a plain warning
 * below the 30 checkpoints ASPRS asks for. Where the admin gives the target's position on the
 * orthomosaic too (map_easting, map_northing), the horizontal RMSE as well.
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { DailyTask } from '#app/lib/jobs/daily.server.ts'
import { ensureLocalFile } from '#app/lib/storage/file-cache.server.ts'
import { projectFiles, type CheckpointReport, type CheckpointResult, type User } from '#db/schema.ts'
import { and, eq, sql } from 'drizzle-orm'

import { changeDeliverable } from './deliverables.server.ts'
import { GdalError, runGdal, type GdalOwner } from './gdal.server.ts'
import { requireElevationModel } from './measure.server.ts'
import { gridFacts, toPixels, valuesAt } from './profile.server.ts'

const ASPRS_MIN_CHECKPOINTS = 30
/** ASPRS edition 2's vertical accuracy classes (RMSEv, cm), finest first. */
const ASPRS_VERTICAL_CLASSES_CM = [1, 2.5, 5, 10, 15, 20, 33.3, 66.7, 100, 333.3]
const MAX_CHECKPOINTS = 1000

const CHECKPOINT_MESSAGES = {
  header: 'The CSV starts with the header id,easting,northing,elevation (map_easting,map_northing optional).',
  row: (line: number) => `Line ${line} needs an id and three numbers: id,easting,northing,elevation.`,
  tooMany: `At most ${MAX_CHECKPOINTS} checkpoints at once.`,
  none: 'Give at least one checkpoint.',
  crs: 'The CRS is not one GDAL knows (give it as EPSG:code).',
} as const

type CheckpointRow = Omit<CheckpointResult, 'modelElevationM' | 'dzM' | 'horizontalErrorM' | 'map'> & {
  map: [number, number] | null
}

/** A refusal of the CSV or the CRS, named on its field (the admin's form shows it there). */
const refuse = (field: 'csv' | 'crs', message: string) =>
  new DomainError(400, message, { fieldErrors: { [field]: [message] } })

const NUMBER = /^[+-]?\d{1,12}(?:\.\d{1,12})?$/

/** The checkpoint CSV (comma or semicolon), bounded and strict: every error names its line. */
export function parseCheckpointCsv(csv: string): CheckpointRow[] {
  const lines = csv.split(/\r?\n/).map((l) => l.trim())
  const header = (lines.shift() ?? '')
    .toLowerCase()
    .split(/[,;]/)
    .map((c) => c.trim())
  const column = (name: string) => header.indexOf(name)
  const [id, easting, northing, elevation] = ['id', 'easting', 'northing', 'elevation'].map(column)
  if ([id, easting, northing, elevation].some((i) => i === undefined || i < 0))
    throw refuse('csv', CHECKPOINT_MESSAGES.header)
  const [mapEasting, mapNorthing] = ['map_easting', 'map_northing'].map(column)
  const rows: CheckpointRow[] = []
  lines.forEach((line, index) => {
    if (line === '') return
    if (rows.length >= MAX_CHECKPOINTS) throw refuse('csv', CHECKPOINT_MESSAGES.tooMany)
    const cells = line.split(/[,;]/).map((c) => c.trim())
    const number = (i: number | undefined) =>
      i !== undefined && i >= 0 && NUMBER.test(cells[i] ?? '') ? Number(cells[i]) : null
    const name = cells[id!] ?? ''
    const [e, n, z] = [number(easting), number(northing), number(elevation)]
    if (!name || name.length > 64 || e === null || n === null || z === null)
      throw refuse('csv', CHECKPOINT_MESSAGES.row(index + 2))
    const [me, mn] = [number(mapEasting), number(mapNorthing)]
    rows.push({
      id: name,
      easting: e,
      northing: n,
      elevationM: z,
      map: me !== null && mn !== null ? [me, mn] : null,
    })
  })
  if (!rows.length) throw refuse('csv', CHECKPOINT_MESSAGES.none)
  return rows
}

const rms = (values: number[]) => Math.sqrt(values.reduce((sum, v) => sum + v * v, 0) / values.length)
const round = (value: number, places = 4) => Math.round(value * 10 ** places) / 10 ** places

/** The finest ASPRS vertical class a vertical RMSE meets ("5-cm"), null when coarser than all. */
export function asprsVerticalClass(rmseM: number) {
  const found = ASPRS_VERTICAL_CLASSES_CM.find((cm) => rmseM * 100 <= cm + 1e-9)
  return found === undefined ? null : `${found}-cm`
}

/** The report from each point's model height (null off the model). */
function checkpointReport(
  crs: string,
  rows: CheckpointRow[],
  heights: Array<number | null>,
): CheckpointReport {
  const points: CheckpointResult[] = rows.map((row, i) => {
    const model = heights[i] ?? null
    return {
      id: row.id,
      easting: row.easting,
      northing: row.northing,
      elevationM: row.elevationM,
      modelElevationM: model === null ? null : round(model),
      dzM: model === null ? null : round(model - row.elevationM),
      horizontalErrorM: row.map
        ? round(Math.hypot(row.map[0] - row.easting, row.map[1] - row.northing))
        : null,
      map: row.map,
    }
  })
  const dz = points.flatMap((p) => (p.dzM === null ? [] : [p.dzM]))
  const horizontal = points.flatMap((p) => (p.horizontalErrorM === null ? [] : [p.horizontalErrorM]))
  const verticalRmseM = dz.length ? round(rms(dz)) : null
  return {
    crs,
    count: points.length,
    usedCount: dz.length,
    verticalRmseM,
    meanErrorM: dz.length ? round(dz.reduce((a, b) => a + b, 0) / dz.length) : null,
    asprsVerticalClass: verticalRmseM === null ? null : asprsVerticalClass(verticalRmseM),
    horizontalRmseM: horizontal.length ? round(rms(horizontal)) : null,
    horizontalCount: horizontal.length,
    warning:
      dz.length < ASPRS_MIN_CHECKPOINTS
        ? `${dz.length} checkpoint${dz.length === 1 ? '' : 's'} on the model: ASPRS asks for at least ${ASPRS_MIN_CHECKPOINTS} for a stated accuracy.`
        : null,
    points,
    checkedAt: new Date().toISOString(),
  }
}

/** A CRS as GDAL states it in PROJ.4 text (a GdalError when GDAL does not know it). */
async function proj4Of(crs: string, owner: GdalOwner, signal?: AbortSignal) {
  return (await runGdal('gdalsrsinfo', ['-o', 'proj4', crs], { owner, signal, timeoutMs: 10_000 })).trim()
}

/** An admin's checkpoints against an elevation deliverable: computed, kept on the deliverable (audited). */
export async function checkDeliverable(
  admin: Pick<User, 'id' | 'role'>,
  projectId: number,
  fileId: number,
  input: { crs: string; csv: string },
  { signal }: { signal?: AbortSignal } = {},
  db: DbOrTx = getDb(),
) {
  if (admin.role !== 'admin') throw new DomainError(404, 'File not found')
  const stored = requireElevationModel(admin, projectId, fileId, db)
  const rows = parseCheckpointCsv(input.csv)
  let proj4: string
  try {
    proj4 = await proj4Of(input.crs, { accountId: admin.id }, signal)
  } catch (error) {
    if (error instanceof GdalError && !error.aborted) throw refuse('crs', CHECKPOINT_MESSAGES.crs)
    throw error
  }
  const run = { accountId: admin.id, signal }
  const model = await ensureLocalFile(stored)
  const facts = await gridFacts(run, model)
  const pixels = await toPixels(
    run,
    model,
    rows.map((r) => [r.easting, r.northing]),
    input.crs,
  )
  const heights = await valuesAt(run, model, pixels, facts.nodata)
  const report = { ...checkpointReport(input.crs, rows, heights), proj4 }
  return changeDeliverable(admin, projectId, fileId, 'deliverable.checkpoints', db, (before) => ({
    set: { checkpoints: report },
    before: {
      checkpoints: before.checkpoints
        ? { count: before.checkpoints.count, verticalRmseM: before.checkpoints.verticalRmseM }
        : null,
    },
    after: {
      count: report.count,
      verticalRmseM: report.verticalRmseM,
      horizontalRmseM: report.horizontalRmseM,
    },
  }))
}

/**
 * Reports checked before a report kept its CRS's PROJ.4 text get it, so the Map view offers
 * their targets without the checkpoints being checked again. A report checked again meanwhile is
 * left as it is (the update names the report's time); at most 200 a day, each a quick GDAL call.
 */
export const checkpointProj4DailyTask: DailyTask = {
  name: "checkpoints: older reports' CRS text",
  async run() {
    const db = getDb()
    const older = db
      .select({ id: projectFiles.id, report: projectFiles.checkpoints })
      .from(projectFiles)
      .where(
        sql`json_extract(${projectFiles.checkpoints}, '$.proj4') is null and ${projectFiles.checkpoints} is not null`,
      )
      .limit(200)
      .all()
    for (const { id, report } of older) {
      if (!report) continue
      const proj4 = await proj4Of(report.crs, 'conversion').catch(() => null)
      if (!proj4) continue
      db.update(projectFiles)
        .set({ checkpoints: { ...report, proj4 } })
        .where(
          and(
            eq(projectFiles.id, id),
            sql`json_extract(${projectFiles.checkpoints}, '$.checkedAt') = ${report.checkedAt}`,
          ),
        )
        .run()
    }
  },
}
