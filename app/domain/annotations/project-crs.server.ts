/**
 * The "project" CRS of the notes exports: the project's, so a new upload never moves it. On a
 * site it is the first delivered survey's (every survey of the site exports in one CRS); else
 * the project's own first readable raster (its survey's grid, e.g. UTM 34S or Lo19); before
 * there is one, the UTM zone at the project (or its first note). Failed files never count.
 */
import { readableDeliverables } from '#app/domain/deliverables/readable-deliverables.server.ts'
import { listSiteProjects } from '#app/domain/sites/site-access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import type { Project } from '#db/schema.ts'

import type { AnnotationView } from './annotation-schemas.ts'

/** The WGS84 UTM zone (EPSG code) at a point. */
function utmZoneAt(lng: number, lat: number) {
  const zone = Math.min(60, Math.max(1, Math.floor((lng + 180) / 6) + 1))
  return (lat < 0 ? 32700 : 32600) + zone
}

/** The EPSG of the first readable raster of the first of these surveys that has one. */
function firstRasterEpsg(surveyIds: number[], db: DbOrTx) {
  const files = readableDeliverables(surveyIds, {}, db)
  for (const id of surveyIds) {
    const epsg = files.find((f) => f.projectId === id && f.rasterInfo?.epsg)?.rasterInfo?.epsg
    if (epsg) return epsg
  }
  return null
}

export function projectEpsg(
  project: Pick<Project, 'id' | 'siteId' | 'latitude' | 'longitude'>,
  notes: Pick<AnnotationView, 'geometry'>[],
  db: DbOrTx = getDb(),
) {
  const delivered = project.siteId
    ? listSiteProjects(project.siteId, db)
        .filter((s) => s.status === 'completed')
        .map((s) => s.id)
    : []
  const epsg = firstRasterEpsg(delivered, db) ?? firstRasterEpsg([project.id], db)
  if (epsg) return epsg
  const first = notes[0]?.geometry
  const at =
    project.longitude != null && project.latitude != null
      ? [project.longitude, project.latitude]
      : first?.type === 'Point'
        ? first.coordinates
        : first?.type === 'LineString'
          ? first.coordinates[0]
          : first?.coordinates[0]?.[0]
  return at ? utmZoneAt(at[0]!, at[1]!) : 4326
}
