/**
 * A client's sites: the list, one site with its surveys, renaming and the
 * repeat schedule. Access goes through `getSiteForUser` (owner or admin, else 404); the
 * `/api/client/sites` routes, the dashboard and the site page all call this module.
 */
import { listDeliverables } from '#app/domain/deliverables/deliverables.server.ts'
import { projectFilesAvailableUntil } from '#app/domain/files/availability.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { sites, type Project, type Site } from '#db/schema.ts'
import { asc, eq } from 'drizzle-orm'

import { getSiteForUser, listSiteProjects, type SiteViewer } from './site-access.server.ts'
import { dayOfMonth, nextDueOn, type SiteUpdate } from './site-schedule.ts'

/** A site as the API shows it. `nextDueAt` is the preferred date of the next scheduled survey (YYYY-MM-DD). */
export interface ApiSite {
  id: number
  name: string
  repeatEvery: Site['repeatEvery']
  nextDueAt: string | null
  projectIds: number[]
}

function toApiSite(site: Site, projectIds: number[]): ApiSite {
  return {
    id: site.id,
    name: site.name,
    repeatEvery: site.repeatEvery,
    nextDueAt: site.nextDueOn,
    projectIds,
  }
}

/** The client's own sites, by name. */
function sitesOfClient(clientId: number, db: DbOrTx) {
  return db
    .select()
    .from(sites)
    .where(eq(sites.clientId, clientId))
    .orderBy(asc(sites.name), asc(sites.id))
    .all()
}

/** The client's sites by name, each with its projects (oldest survey first). */
export function listClientSites(clientId: number, db: DbOrTx = getDb()): ApiSite[] {
  return sitesOfClient(clientId, db).map((site) =>
    toApiSite(
      site,
      listSiteProjects(site.id, db).map((p) => p.id),
    ),
  )
}

/** `GET /api/client/sites/{id}`: the site and its projects with their deliverable counts. */
export function getSiteWithProjects(viewer: SiteViewer, siteId: number, db: DbOrTx = getDb()) {
  const site = getSiteForUser(viewer, siteId, db)
  const rows = listSiteProjects(site.id, db)
  return {
    site: toApiSite(
      site,
      rows.map((p) => p.id),
    ),
    projects: rows.map((p) => ({
      id: p.id,
      name: p.name,
      status: p.status,
      completedAt: p.completedAt ? p.completedAt.toISOString() : null,
      deliverableCount: listDeliverables(viewer, p.id, db).length,
    })),
  }
}

/**
 * The date a survey is shown at: flown; else the pilot's scheduled date; else, for a repeat,
 * its preferred date (the schedule's, kept as the deadline); else when it was ordered.
 */
function surveyDate(project: Project) {
  if (project.completedAt) return { kind: 'flown' as const, on: todayInSouthAfrica(project.completedAt) }
  if (project.scheduledDate) return { kind: 'scheduled' as const, on: project.scheduledDate }
  if (project.repeatOfProjectId && project.deadline)
    return { kind: 'preferred' as const, on: project.deadline }
  return { kind: 'ordered' as const, on: todayInSouthAfrica(project.createdAt) }
}

/**
 * The newest thumbnail of the site's surveys (an orthomosaic's first), newest survey first,
 * among those whose deliverables are still available (a site's surveys keep theirs until after the next one).
 */
function latestThumbnail(viewer: SiteViewer, rows: Project[], db: DbOrTx, now = new Date()) {
  for (const project of [...rows].reverse()) {
    const until = projectFilesAvailableUntil(project, db)
    if (project.status !== 'completed' || !until || until <= now) continue
    const withThumbnail = listDeliverables(viewer, project.id, db).filter((d) => d.view?.thumbnailUrl)
    const best = withThumbnail.find((d) => d.kind === 'orthomosaic') ?? withThumbnail[0]
    if (best)
      return { url: best.view!.thumbnailUrl!, alt: `Thumbnail of ${best.fileName}`, projectId: project.id }
  }
  return null
}

/** One site on the dashboard and the site page: its surveys in date order, latest thumbnail, next due. */
function toSiteCard(viewer: SiteViewer, site: Site, db: DbOrTx) {
  const rows = listSiteProjects(site.id, db)
  return {
    id: site.id,
    name: site.name,
    repeatEvery: site.repeatEvery,
    nextDueOn: site.nextDueOn,
    thumbnail: latestThumbnail(viewer, rows, db),
    surveys: rows.map((p) => ({
      id: p.id,
      name: p.name,
      status: p.status,
      isPaid: p.isPaid,
      quoteAmount: p.quoteAmount,
      date: surveyDate(p),
    })),
  }
}
export type SiteCard = ReturnType<typeof toSiteCard>

/** The client dashboard's site list. */
export function siteCardsOfClient(clientId: number, db: DbOrTx = getDb()): SiteCard[] {
  const viewer: SiteViewer = { id: clientId, role: 'client' }
  return sitesOfClient(clientId, db).map((site) => toSiteCard(viewer, site, db))
}

/** The site page: one site as a card (404 unless the viewer may see it). */
export function getSiteCard(viewer: SiteViewer, siteId: number, db: DbOrTx = getDb()): SiteCard {
  return toSiteCard(viewer, getSiteForUser(viewer, siteId, db), db)
}

/**
 * What a new schedule is counted from: the latest survey's flown date (South African day),
 * or today when none has been flown yet.
 */
function scheduleAnchor(siteId: number, today: string, db: DbOrTx) {
  const flown = listSiteProjects(siteId, db)
    .filter((p) => p.completedAt)
    .map((p) => todayInSouthAfrica(p.completedAt!))
    .sort()
  return flown.at(-1) ?? today
}

/**
 * Renames the site and/or sets its schedule (validate with `SiteUpdateSchema` first). A new
 * schedule is due one interval after the latest flown survey (never in the past); `null`
 * cancels it. Setting the interval the site already has keeps its due date.
 */
export function updateSite(
  viewer: SiteViewer,
  siteId: number,
  input: SiteUpdate,
  { now = new Date() }: { now?: Date } = {},
  db: DbOrTx = getDb(),
): ApiSite {
  return db.transaction((tx) => {
    const site = getSiteForUser(viewer, siteId, tx)
    const changes: Partial<Site> = { updatedAt: now }
    if (input.name !== undefined) changes.name = input.name
    if (input.repeatEvery === null) {
      changes.repeatEvery = null
      changes.nextDueOn = null
      changes.repeatDay = null
    } else if (input.repeatEvery !== undefined && input.repeatEvery !== site.repeatEvery) {
      const today = todayInSouthAfrica(now)
      const anchor = scheduleAnchor(site.id, today, tx)
      changes.repeatEvery = input.repeatEvery
      changes.repeatDay = dayOfMonth(anchor)
      changes.nextDueOn = nextDueOn(input.repeatEvery, anchor, today)
    }
    const updated = tx.update(sites).set(changes).where(eq(sites.id, site.id)).returning().get()!
    return toApiSite(
      updated,
      listSiteProjects(site.id, tx).map((p) => p.id),
    )
  })
}
