/**
 * Repeats of a site are told apart by their survey date wherever two can sit side by side:
 * download names, "Download all" ZIPs and their entries, the share dialog. A project alone on
 * its site (or on none) keeps its plain names.
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { projects, type Project } from '#db/schema.ts'
import { inArray } from 'drizzle-orm'

type Survey = Pick<Project, 'id' | 'siteId' | 'completedAt' | 'createdAt'>

/** The day a survey is known by: when it was flown (completed), else when it was ordered. */
export const surveyDateOf = (project: Pick<Project, 'completedAt' | 'createdAt'>) =>
  project.completedAt ?? project.createdAt

/** The project's survey date ('14 Nov 2026') when its site has another survey, else null. */
export function repeatSurveyDate(project: Survey, db: DbOrTx = getDb()): string | null {
  return repeatSurveyDates([project], db).get(project.id) ?? null
}

/** `repeatSurveyDate` of each of `surveys`, by project id: one query for all their sites. */
export function repeatSurveyDates(surveys: Survey[], db: DbOrTx = getDb()): Map<number, string | null> {
  const siteIds = [...new Set(surveys.flatMap((s) => (s.siteId === null ? [] : [s.siteId])))]
  // drizzle's inArray of no ids is `false`: no sites, no rows.
  const onSites = db
    .select({ id: projects.id, siteId: projects.siteId })
    .from(projects)
    .where(inArray(projects.siteId, siteIds))
    .all()
  return new Map(
    surveys.map((s) => {
      const repeated = onSites.some((o) => o.siteId === s.siteId && o.id !== s.id)
      return [s.id, repeated ? formatDate(surveyDateOf(s), { short: true }) : null]
    }),
  )
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
