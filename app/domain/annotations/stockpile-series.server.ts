/**
 * A stockpile (or pit) over time: a polygon note marked so on a site is measured on every
 * survey of the site that has an elevation model, with the note's base, through the volume
 * engine. Who reads it: whoever may see the site (its client, admins); others 404.
 */
import { countMeasure } from '#app/domain/deliverables/measure.server.ts'
import { getSiteForUser, listSiteProjects } from '#app/domain/sites/site-access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { projects, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { latestElevationModel, volumeOnModel } from './annotation-measure.server.ts'
import { ANNOTATION_MESSAGES } from './annotation-schemas.ts'
import { getAnnotation } from './annotations.server.ts'

export type StockpilePoint = {
  projectId: number
  projectName: string
  fileId: number
  /** The survey's date: its completion, else its creation (ISO). */
  surveyedAt: string
  cutM3: number
  fillM3: number
  netM3: number
  /** A stockpile's volume is its cut, a pit's its fill (m³). */
  volumeM3: number
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
  const ring = note.geometry.coordinates[0] as [number, number][]
  const points: StockpilePoint[] = []
  for (const survey of listSiteProjects(site.id, db)) {
    const model = latestElevationModel(survey.id, db)
    if (!model) continue
    await countMeasure(user.id)
    const v = await volumeOnModel(user, model, ring, note.base ?? 'edge-mean', note.baseElevationM, signal)
    if (!v) continue
    points.push({
      projectId: survey.id,
      projectName: survey.name,
      fileId: model.id,
      surveyedAt: (survey.completedAt ?? survey.createdAt).toISOString(),
      cutM3: v.cutM3!,
      fillM3: v.fillM3!,
      netM3: v.netM3!,
      volumeM3: note.stockpileKind === 'pit' ? v.fillM3! : v.cutM3!,
    })
  }
  return { annotation: note, site: { id: site.id, name: site.name }, points }
}

function listProjectSite(projectId: number, db: DbOrTx) {
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  if (!project?.siteId) throw new DomainError(404, 'This note’s project is not on a site.')
  return { ...project, siteId: project.siteId }
}

/** The series as CSV (one survey a line). */
export function stockpileCsv(points: StockpilePoint[]) {
  const header = 'surveyed_at,project_id,project_name,file_id,volume_m3,cut_m3,fill_m3,net_m3'
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`
  return (
    [
      header,
      ...points.map((p) =>
        [
          p.surveyedAt,
          p.projectId,
          quote(p.projectName),
          p.fileId,
          p.volumeM3,
          p.cutM3,
          p.fillM3,
          p.netM3,
        ].join(','),
      ),
    ].join('\n') + '\n'
  )
}
