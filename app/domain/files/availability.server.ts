/**
 * Until when a project's files are available, with the site's surveys taken into account
 * (ADR 160). The rule itself is `filesAvailableUntil` in rules.ts; this module finds
 * what it needs to know about the project's site, for one project or for the daily job's many
 * (two queries, whatever the number of projects).
 */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { projects, sites, type Project } from '#db/schema.ts'
import { inArray } from 'drizzle-orm'

import { filesAvailableUntil, type SiteSurveyState } from './rules.ts'

type SurveyOnSite = Pick<Project, 'id' | 'siteId' | 'completedAt'>
type AvailabilityInput = SurveyOnSite & Pick<Project, 'filesKeptUntil'>

/** The site state of each completed project on a site (projects without a site are absent). */
export function siteSurveyStates(
  surveys: readonly SurveyOnSite[],
  db: DbOrTx = getDb(),
): Map<number, SiteSurveyState> {
  const states = new Map<number, SiteSurveyState>()
  const siteIds = [...new Set(surveys.flatMap((p) => (p.siteId && p.completedAt ? [p.siteId] : [])))]
  if (!siteIds.length) return states
  const repeating = new Set(
    db
      .select({ id: sites.id, repeatEvery: sites.repeatEvery })
      .from(sites)
      .where(inArray(sites.id, siteIds))
      .all()
      .filter((s) => s.repeatEvery)
      .map((s) => s.id),
  )
  const bySite = new Map<number, Pick<Project, 'id' | 'status' | 'completedAt'>[]>()
  for (const row of db
    .select({
      id: projects.id,
      siteId: projects.siteId,
      status: projects.status,
      completedAt: projects.completedAt,
    })
    .from(projects)
    .where(inArray(projects.siteId, siteIds))
    .all())
    bySite.set(row.siteId!, [...(bySite.get(row.siteId!) ?? []), row])

  for (const survey of surveys) {
    if (!survey.siteId || !survey.completedAt) continue
    const others = (bySite.get(survey.siteId) ?? []).filter((p) => p.id !== survey.id)
    const laterCompletions = others
      .filter((p) => p.status === 'completed' && p.completedAt && p.completedAt > survey.completedAt!)
      .map((p) => p.completedAt!.getTime())
    states.set(survey.id, {
      nextCompletedAt: laterCompletions.length ? new Date(Math.min(...laterCompletions)) : null,
      awaitingNext:
        repeating.has(survey.siteId) ||
        others.some((p) => p.status !== 'completed' && p.status !== 'cancelled'),
    })
  }
  return states
}

/**
 * A completed project's deliverables: until when they are available, and whether that date
 * still waits on the site's next survey (then it is the latest they can stay, and a month
 * after the next survey is completed is the real end).
 */
export function projectDeliverablesAvailability(project: AvailabilityInput, db: DbOrTx = getDb()) {
  const site =
    project.siteId && project.completedAt ? (siteSurveyStates([project], db).get(project.id) ?? null) : null
  const until = filesAvailableUntil(project, 'processed_deliverable', site)
  const ordinary = filesAvailableUntil(project, 'raw_image')
  const untilNextSurvey = Boolean(
    until && ordinary && site?.awaitingNext && !site.nextCompletedAt && until.getTime() > ordinary.getTime(),
  )
  return { until, untilNextSurvey }
}

/** `filesAvailableUntil` for one project's processed deliverables, its site state looked up (no query without a site). */
export function projectFilesAvailableUntil(project: AvailabilityInput, db: DbOrTx = getDb()): Date | null {
  return projectDeliverablesAvailability(project, db).until
}
