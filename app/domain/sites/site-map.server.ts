/**
 * What the site Map view (`/sites/$siteId/map`) shows: the site's surveys that have
 * a ready viewing copy, the Before and After pair chosen with `?before=&after=` (by default
 * the two latest), each survey's orthomosaic and elevation model as map layers, and its
 * raster deliverables for the previews and metadata. Access: `getSiteForUser` (404 otherwise).
 */
import type { Deliverable } from '#app/domain/deliverables/deliverable.ts'
import { listDeliverables } from '#app/domain/deliverables/deliverables.server.ts'
import { sharedRange } from '#app/domain/deliverables/elevation-ramp.ts'
import { toMapLayer, type MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import { measureChange, minimumChangeFor } from '#app/domain/deliverables/measure.server.ts'
import { surveyDateOf } from '#app/domain/files/survey-dates.server.ts'
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { DomainError, isDomainError } from '#app/lib/http/domain-error.ts'
import { idOrNull } from '#app/lib/http/page-errors.server.ts'
import type { Project } from '#db/schema.ts'

import { getSiteForUser, listSiteProjects, type SiteViewer } from './site-access.server.ts'

const SITE_MAP_MESSAGES = {
  tooFew: 'Two surveys of this site with map-ready deliverables are needed to compare them.',
  sameSurvey: 'Before and After are the same survey: choose two different ones.',
  noElevation: 'Both surveys need an elevation model to show the elevation change.',
  noAreas: 'The After survey has no survey areas to measure over.',
} as const

export interface SiteSurvey {
  projectId: number
  name: string
  /** When it was flown: completion, else creation (ISO). */
  flownAt: string
  /** '15 Jan 2027 · Quarry north' for the pickers. */
  label: string
  orthomosaic: MapLayer | null
  elevation: MapLayer | null
  /** Its raster deliverables with a ready viewing copy (previews and metadata). */
  rasters: Deliverable[]
  areas: SurveyArea[]
}

/** Newest layer of a kind (a re-upload replaces an older one on the map). */
function latestLayer(layers: MapLayer[], kind: MapLayer['kind']) {
  return layers.filter((l) => l.kind === kind).at(-1) ?? null
}

function surveyOf(user: SiteViewer, project: Project, db: DbOrTx): SiteSurvey | null {
  let deliverables: Deliverable[]
  try {
    deliverables = listDeliverables(user, project.id, db)
  } catch (error) {
    // A project this viewer may not see is left out, like one with nothing to show.
    if (isDomainError(error, 404)) return null
    throw error
  }
  const rasters = deliverables.filter((d) => !d.removedAt && toMapLayer(d))
  if (!rasters.length) return null
  const layers = rasters.map((d) => toMapLayer(d)!)
  const flownAt = surveyDateOf(project).toISOString()
  return {
    projectId: project.id,
    name: project.name,
    flownAt,
    label: `${formatDate(flownAt, { short: true })} · ${project.name}`,
    orthomosaic: latestLayer(layers, 'orthomosaic'),
    elevation: latestLayer(layers, 'elevation'),
    rasters,
    areas: flightPlanAreas(project.flightPlan) ?? [],
  }
}

/** A project id from the query, or null for anything else (the default is used then). */
/**
 * The site, its comparable surveys (oldest first) and the chosen pair. An id that is not one
 * of them falls back to the default: After the latest survey, Before the one before it.
 */
export function loadSiteMap(user: SiteViewer, siteId: number, query: URLSearchParams, db: DbOrTx = getDb()) {
  const site = getSiteForUser(user, siteId, db)
  const surveys = listSiteProjects(site.id, db).flatMap((p) => surveyOf(user, p, db) ?? [])
  const find = (id: number | null) => surveys.find((s) => s.projectId === id) ?? null
  const after = find(idOrNull(query.get('after'))) ?? surveys.at(-1) ?? null
  const before =
    find(idOrNull(query.get('before'))) ??
    surveys.filter((s) => s.projectId !== after?.projectId && s.flownAt <= (after?.flownAt ?? '')).at(-1) ??
    surveys.find((s) => s.projectId !== after?.projectId) ??
    null
  let problem: string | null = null
  if (!before || !after) problem = SITE_MAP_MESSAGES.tooFew
  else if (before.projectId === after.projectId) problem = SITE_MAP_MESSAGES.sameSurvey
  else if (!before.elevation || !after.elevation) problem = SITE_MAP_MESSAGES.noElevation
  return {
    site: { id: site.id, name: site.name },
    surveys: surveys.map((s) => ({ projectId: s.projectId, label: s.label })),
    before,
    after,
    problem,
    /** Both elevation models, when the pair can show the change, and the smallest change it counts (m). */
    change:
      before && after && before.projectId !== after.projectId && before.elevation && after.elevation
        ? {
            before: before.elevation,
            after: after.elevation,
            afterProjectId: after.projectId,
            minimumM: minimumChangeFor(
              [rasterOf(before, before.elevation), rasterOf(after, after.elevation)],
              db,
            ),
            /** Both models' colours stretched over both: one colour is one height on either side. */
            range: sharedRange([before.elevation, after.elevation]),
          }
        : null,
  }
}

/** The stored raster facts of a survey's layer (its ground resolution sets the minimum change). */
function rasterOf(survey: SiteSurvey, layer: MapLayer) {
  return { rasterInfo: survey.rasters.find((d) => d.id === layer.id)?.raster ?? null }
}

/**
 * The no-JS form's answer: the change between the pair's elevation models over each of the
 * After survey's areas, through the same service as the change call (`measureChange`). A failure in one area
 * (it does not cover the models, say) is that area's message; the others still count.
 */
export async function changeOverAreas(
  user: SiteViewer,
  siteId: number,
  form: URLSearchParams,
  signal?: AbortSignal,
  db: DbOrTx = getDb(),
) {
  const { change, after, problem } = loadSiteMap(user, siteId, form, db)
  if (!change || !after) throw new DomainError(400, problem ?? SITE_MAP_MESSAGES.noElevation)
  if (!after.areas.length) throw new DomainError(400, SITE_MAP_MESSAGES.noAreas)
  const results = []
  for (const [index, area] of after.areas.entries()) {
    const ring = area.coordinates.map((p) => [p.longitude, p.latitude] as [number, number])
    ring.push(ring[0]!)
    try {
      const figures = await measureChange(
        user,
        change.afterProjectId,
        change.after.id,
        { againstFileId: change.before.id, ring },
        { signal },
      )
      results.push({ areaNumber: index + 1, figures, error: null })
    } catch (error) {
      if (!isDomainError(error) || error.status >= 500 || error.status === 429) throw error
      results.push({ areaNumber: index + 1, figures: null, error: error.message })
    }
  }
  return results
}
