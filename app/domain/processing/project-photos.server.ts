/**
 * The project's photos as processing sees them: the stored raw photos and the GCP file sent to
 * the node, and the photo check on their stored EXIF facts (read at upload; older photos here).
 */
import { readUnreadPhotos } from '#app/domain/files/photo-gps.server.ts'
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { processingNodes, projectFiles, projects } from '#db/schema.ts'
import { and, desc, eq, isNull, type SQL } from 'drizzle-orm'

import { checkPhotos, PHOTO_CHECK_MESSAGES, type PhotoProblem } from './photo-check.ts'

/** The project's files still stored (not removed by retention) that match `which`. */
function storedFiles(projectId: number, which: SQL, db: DbOrTx) {
  return db
    .select()
    .from(projectFiles)
    .where(and(eq(projectFiles.projectId, projectId), which, isNull(projectFiles.removedAt)))
}

/** The project's photos still stored (the ones sent to the node), oldest first; no access check (the job's). */
export function projectPhotosWithoutAccessCheck(projectId: number, db: DbOrTx = getDb()) {
  return storedFiles(projectId, eq(projectFiles.fileCategory, 'raw_image'), db).orderBy(projectFiles.id).all()
}

/** The newest `gcp_list.txt` uploaded with the photos, sent to the node beside them; no access check. */
export function projectGcpFileWithoutAccessCheck(projectId: number, db: DbOrTx = getDb()) {
  return storedFiles(projectId, eq(projectFiles.originalName, 'gcp_list.txt'), db)
    .orderBy(desc(projectFiles.id))
    .get()
}

/**
 * The most photos a node that may run the job takes: the asked-for node's, else the largest of
 * the enabled nodes' (online or not: a job may wait for one); null when any number goes or no
 * node is known (the start refuses that on its own).
 */
function mostPhotosANodeTakes(nodeId: number | null, db: DbOrTx) {
  const nodes = db
    .select({ id: processingNodes.id, maxImages: processingNodes.maxImages })
    .from(processingNodes)
    .where(eq(processingNodes.enabled, true))
    .all()
    .filter((n) => nodeId === null || n.id === nodeId)
  if (!nodes.length || nodes.some((n) => n.maxImages === null)) return null
  return Math.max(...nodes.map((n) => n.maxImages!))
}

/** The photo check of the project's stored photos; no access check (the caller's). */
export async function projectPhotoCheck(
  projectId: number,
  nodeId: number | null = null,
  db: DbOrTx = getDb(),
) {
  await readUnreadPhotos(projectId, db)
  const project = db
    .select({ flightPlan: projects.flightPlan })
    .from(projects)
    .where(eq(projects.id, projectId))
    .get()
  return checkPhotos({
    photos: projectPhotosWithoutAccessCheck(projectId, db).map((p) => ({
      name: p.originalName,
      latitude: p.gpsLatitude,
      longitude: p.gpsLongitude,
    })),
    areas: flightPlanAreas(project?.flightPlan ?? null) ?? [],
    hasGcp: Boolean(projectGcpFileWithoutAccessCheck(projectId, db)),
    mostPhotosANodeTakes: mostPhotosANodeTakes(nodeId, db),
  })
}

/**
 * The photo check's verdict on a start: 422 `{ error, problems, acceptable }` when it refuses,
 * or when it found problems the admin did not accept; the problems accepted (null: none) otherwise.
 */
export async function acceptedPhotoProblems(
  projectId: number,
  nodeId: number | null,
  acceptWarnings = false,
  db: DbOrTx = getDb(),
): Promise<PhotoProblem[] | null> {
  const check = await projectPhotoCheck(projectId, nodeId, db)
  const extra = { problems: check.problems, acceptable: !check.refusal }
  if (check.refusal) throw new DomainError(422, check.refusal, { extra })
  if (!check.problems.length) return null
  if (!acceptWarnings)
    throw new DomainError(422, PHOTO_CHECK_MESSAGES.problems(check.problemCount), { extra })
  return check.problems
}
