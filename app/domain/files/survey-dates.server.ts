/**
 * Repeats of a site are told apart by their survey date wherever two can sit side by side:
 * download names, "Download all" ZIPs and their entries, the share dialog. A project alone on
 * its site (or on none) keeps its plain names.
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { projects, type Project } from '#db/schema.ts'
import { and, eq, ne } from 'drizzle-orm'

type Survey = Pick<Project, 'id' | 'siteId' | 'completedAt' | 'createdAt'>

/** The day a survey is known by: when it was flown (completed), else when it was ordered. */
export const surveyDateOf = (project: Pick<Project, 'completedAt' | 'createdAt'>) =>
  project.completedAt ?? project.createdAt

/** The project's survey date ('14 Nov 2026') when its site has another survey, else null. */
export function repeatSurveyDate(project: Survey, db: DbOrTx = getDb()): string | null {
  if (project.siteId === null) return null
  const other = db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.siteId, project.siteId), ne(projects.id, project.id)))
    .get()
  return other ? formatDate(surveyDateOf(project), { short: true }) : null
}

/** 'Orthomosaic.tif' → 'Orthomosaic (14 Nov 2026).tif'; the name as it is without a date or when it has it already. */
export function datedFileName(name: string, date: string | null) {
  if (!date || name.includes(`(${date})`)) return name
  const dot = name.lastIndexOf('.')
  return dot > 0 ? `${name.slice(0, dot)} (${date})${name.slice(dot)}` : `${name} (${date})`
}

/** The name a project's file downloads under: with the survey date when its site has another survey. */
export function downloadNameOf(name: string, project: Survey, db: DbOrTx = getDb()) {
  return datedFileName(name, repeatSurveyDate(project, db))
}
