/**
 * Which site a project is on. `joinSiteOf` is the one way a project is put
 * on the site of another — "Fly this again" and a new quote over the same ground both use it;
 * `siteOf` gives a flown or paid project its own site, named after it, the first time one is needed.
 * `sameGroundProject` decides "the same areas": intersection over union of the two projects'
 * areas at least `SAME_GROUND_IOU`. No import of the projects service: it calls this module.
 */
import { intersect, area as turfArea, bbox as turfBbox, union } from '@turf/turf'
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import { areasToFeatureCollection, type SurveyArea } from '#app/domain/geometry/areas.ts'
import { canRepeat } from '#app/domain/projects/status.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { projects, sites, type Project } from '#db/schema.ts'
import { and, eq, ne } from 'drizzle-orm'
import type { BBox, Feature, MultiPolygon, Polygon } from 'geojson'

/** Two projects cover the same ground when their areas' intersection over union is at least this. */
export const SAME_GROUND_IOU = 0.8

/** The project's site; a project without one gets a site named after it (the client can rename it). */
export function siteOf(project: Project, now: Date, db: DbOrTx = getDb()): number {
  if (project.siteId !== null) return project.siteId
  const site = db
    .insert(sites)
    .values({ clientId: project.clientId, name: project.name, createdAt: now, updatedAt: now })
    .returning({ id: sites.id })
    .get()
  db.update(projects).set({ siteId: site.id }).where(eq(projects.id, project.id)).run()
  return site.id
}

/** Puts the project on `other`'s site (making that site first when needed); the site's id. */
export function joinSiteOf(projectId: number, other: Project, now: Date, db: DbOrTx = getDb()): number {
  const siteId = siteOf(other, now, db)
  db.update(projects).set({ siteId }).where(eq(projects.id, projectId)).run()
  return siteId
}

type Ground = { shape: Feature<Polygon | MultiPolygon>; box: BBox; sqm: number }

/**
 * A project's areas as one shape (overlapping areas count once), or null. An old plan turf
 * cannot read is no ground to group with: grouping never makes a quote fail.
 */
function groundOf(areas: SurveyArea[]): Ground | null {
  try {
    const collection = areasToFeatureCollection(areas)
    const shape = collection.features.length === 1 ? collection.features[0]! : union(collection)
    if (!shape) return null
    return { shape, box: turfBbox(shape), sqm: turfArea(shape) }
  } catch {
    return null
  }
}

function boxesMeet([aw, as, ae, an]: BBox, [bw, bs, be, bn]: BBox) {
  return aw <= be && bw <= ae && as <= bn && bs <= an
}

/** Intersection over union of two grounds; 0 when it is surely below `SAME_GROUND_IOU` or unreadable. */
function overlapRatio(a: Ground, b: Ground) {
  if (!boxesMeet(a.box, b.box)) return 0
  // IoU can be no more than the smaller area over the larger: skip the polygon work when that is too little.
  if (Math.min(a.sqm, b.sqm) < SAME_GROUND_IOU * Math.max(a.sqm, b.sqm)) return 0
  let common: Feature<Polygon | MultiPolygon> | null
  try {
    common = intersect({ type: 'FeatureCollection', features: [a.shape, b.shape] })
  } catch {
    return 0
  }
  if (!common) return 0
  const shared = turfArea(common)
  return shared / (a.sqm + b.sqm - shared)
}

/** Intersection over union of two projects' areas, each project's areas taken together (see `overlapRatio`). */
export function groundOverlap(ours: SurveyArea[], theirs: SurveyArea[]) {
  const a = groundOf(ours)
  const b = groundOf(theirs)
  return a && b ? overlapRatio(a, b) : 0
}

/** When a project was flown, or paid for: the newer, the likelier the site a client means. */
const recency = (project: Project) => (project.completedAt ?? project.paidAt ?? project.createdAt).getTime()

/**
 * The client's most recent completed or paid project (not `projectId` itself) whose areas are
 * essentially the same ground as `areas`, or null. Only the client's own projects are read.
 */
function sameGroundProject(
  clientId: number,
  projectId: number,
  areas: SurveyArea[],
  db: DbOrTx = getDb(),
): Project | null {
  const ground = groundOf(areas)
  if (!ground) return null
  const candidates = db
    .select()
    .from(projects)
    .where(and(eq(projects.clientId, clientId), ne(projects.id, projectId)))
    .all()
    .filter(canRepeat)
    .sort((a, b) => recency(b) - recency(a) || b.id - a.id)
  for (const candidate of candidates) {
    const theirAreas = flightPlanAreas(candidate.flightPlan)
    const theirs = theirAreas ? groundOf(theirAreas) : null
    if (theirs && overlapRatio(ground, theirs) >= SAME_GROUND_IOU) return candidate
  }
  return null
}

/**
 * A freshly quoted (or re-planned) project that is not a repeat: on the site of the client's
 * project over the same ground, or on none. A repeat keeps the site `repeatProject` gave it.
 */
export function groupBySameGround(project: Project, areas: SurveyArea[], now: Date, db: DbOrTx): Project {
  if (project.repeatOfProjectId !== null) return project
  const match = sameGroundProject(project.clientId, project.id, areas, db)
  const siteId = match ? joinSiteOf(project.id, match, now, db) : null
  if (siteId === project.siteId) return project
  if (siteId === null) db.update(projects).set({ siteId }).where(eq(projects.id, project.id)).run()
  return { ...project, siteId }
}
