/**
 * A project's coverage check: the raw photos' EXIF positions over the
 * planned areas, with the share of each area their footprints cover. For the assigned
 * pilot and admins only (anyone else: 404, as for the project itself). Photos stored
 * before positions were read at upload are read here, once.
 */
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { flightPlanView } from '#app/domain/flight-plan/flight-plan.ts'
import type { LatLng } from '#app/domain/geometry/areas.ts'
import { PROJECT_NOT_FOUND, requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { footprintM } from '#app/domain/survey/camera.ts'
import { surveyPlanOf } from '#app/domain/survey/project-plan.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { isStoredFile, withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import { projectFiles, type Project, type User } from '#db/schema.ts'
import { and, eq, isNull } from 'drizzle-orm'

import { recordPhotoGps } from '../files/photo-gps.server.ts'
import { computeCoverage, DEFAULT_FOOTPRINT, type Footprint } from './coverage.ts'

type Actor = Pick<User, 'id' | 'role'>

/** The assigned pilot and admins; 404 for everyone else (clients included). */
function projectForCoverage(user: Actor, projectId: number, db: DbOrTx = getDb()): Project {
  const project = requireVisibleProject(user, projectId, db)
  if (user.role === 'admin' || (user.role === 'pilot' && project.pilotId === user.id)) return project
  throw new DomainError(404, PROJECT_NOT_FOUND)
}

const rawPhotos = (projectId: number) =>
  and(eq(projectFiles.projectId, projectId), eq(projectFiles.fileCategory, 'raw_image'))

/** Reads the EXIF of the project's photos that have never been read (older uploads). */
async function readUnreadPhotos(projectId: number, db: DbOrTx = getDb()) {
  const unread = db
    .select({ id: projectFiles.id, fileName: projectFiles.fileName })
    .from(projectFiles)
    .where(and(rawPhotos(projectId), isNull(projectFiles.exifReadAt)))
    .all()
  for (const file of unread) {
    const full = absolutePathOf(file)
    // A file gone from disk is the start-up sweep's business; it stays unread until then.
    if (isStoredFile(full)) await withLocalFile(full, (local) => recordPhotoGps(file.id, local, db))
  }
  return unread.length
}

/** Where the footprint comes from: the project's mission plan (camera at the planned altitude) or the default. */
function footprintOf(project: Project, db: DbOrTx) {
  let plan: ReturnType<typeof surveyPlanOf> = null
  try {
    plan = surveyPlanOf(project, db)
  } catch (error) {
    // An old project whose areas cannot be planned (too many lines): the default footprint.
    if (!(error instanceof DomainError)) throw error
  }
  if (!plan)
    return { footprint: DEFAULT_FOOTPRINT, altitudeM: null, angleDeg: null, source: 'default' as const }
  const { sideM, frontM } = footprintM(plan.settings.drone, plan.settings.gsdCm)
  const footprint: Footprint = { sideM: round(sideM, 1), frontM: round(frontM, 1) }
  return {
    footprint,
    altitudeM: round(plan.summary.altitudeM, 1),
    angleDeg: plan.settings.angleDeg,
    source: 'plan' as const,
    droneName: plan.settings.drone.name,
  }
}

function round(value: number, decimals: number) {
  const scale = 10 ** decimals
  return Math.round(value * scale) / scale
}

interface CoveragePhoto extends LatLng {
  id: number
  name: string
}

/** The coverage of a project the user may check (reads older photos' EXIF first). */
export async function projectCoverage(user: Actor, projectId: number, db: DbOrTx = getDb()) {
  const project = projectForCoverage(user, projectId, db)
  await readUnreadPhotos(project.id, db)
  const plan = flightPlanView(project.flightPlan)
  const areas = (plan?.areas ?? [])
    .filter((a) => a.points.length >= 3)
    .map((a) => ({
      areaNumber: a.areaNumber,
      coordinates: a.points.map((p) => ({ latitude: p.latitude, longitude: p.longitude })),
    }))
  const rows = db
    .select({
      id: projectFiles.id,
      name: projectFiles.originalName,
      latitude: projectFiles.gpsLatitude,
      longitude: projectFiles.gpsLongitude,
      exifReadAt: projectFiles.exifReadAt,
    })
    .from(projectFiles)
    .where(rawPhotos(project.id))
    .all()
  const photos: CoveragePhoto[] = []
  let withoutGps = 0
  for (const r of rows) {
    if (r.latitude != null && r.longitude != null)
      photos.push({ id: r.id, name: r.name, latitude: r.latitude, longitude: r.longitude })
    else if (r.exifReadAt) withoutGps++
  }
  const source = footprintOf(project, db)
  const result = computeCoverage({
    areas,
    photos,
    photosWithoutGps: withoutGps,
    footprint: source.footprint,
    angleDeg: source.angleDeg,
  })
  return {
    projectId: project.id,
    footprint: {
      ...source.footprint,
      altitudeM: source.altitudeM,
      source: source.source,
      droneName: source.source === 'plan' ? (source.droneName ?? null) : null,
    },
    areas: result.areas.map((a, i) => ({
      areaNumber: areas[i]!.areaNumber,
      areaSqm: round(a.areaSqm, 1),
      coveredSqm: round(a.coveredSqm, 1),
      /** Per cent, one decimal. */
      coveredPercent: round(a.coveredShare * 100, 1),
      photosInside: a.photosInside,
      outline: areas[i]!.coordinates,
    })),
    photos: {
      total: rows.length,
      withGps: result.photosWithGps,
      withoutGps: result.photosWithoutGps,
      outsideAreas: result.photosOutside,
      /** Not read yet (the file is missing from disk). */
      unread: rows.length - result.photosWithGps - result.photosWithoutGps,
    },
    positions: photos.map((p) => ({
      id: p.id,
      name: p.name,
      latitude: round(p.latitude, 7),
      longitude: round(p.longitude, 7),
    })),
  }
}
export type ProjectCoverage = Awaited<ReturnType<typeof projectCoverage>>
