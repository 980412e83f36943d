/**
 * The pilot's side of a project: the
 * projects assigned to them, one job in full, 'Save Project Progress' (a flight log;
 * the status stays) and the Flight Logs tab. A pilot sees only their own assignments:
 * any other project is 404, so its existence does not leak.
 */
import { fileCountsByProject } from '#app/domain/files/file-queries.server.ts'
import { flightPlanView } from '#app/domain/flight-plan/flight-plan.ts'
import { startProcessingAutomatically } from '#app/domain/processing/auto-start.server.ts'
import { projectPhotosWithoutAccessCheck } from '#app/domain/processing/project-photos.server.ts'
import { projectBasics } from '#app/domain/projects/project-basics.ts'
import { fullName } from '#app/domain/users/person-name.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { flightLogs, projects, users, type Project, type User } from '#db/schema.ts'
import { and, count, desc, eq, inArray, max, sum } from 'drizzle-orm'

import { PROGRESS_MESSAGES } from './schemas.ts'

const PROJECT_NOT_FOUND = 'Project not found'

/** What a pilot may see of a project: the job, not the money split or the client's screenshot. */
function toPilotProject(
  project: Project,
  client: Pick<User, 'firstName' | 'lastName' | 'email' | 'phone' | 'companyName'> | null,
  media: { images: number; videos: number },
) {
  const plan = flightPlanView(project.flightPlan)
  return {
    ...projectBasics(project),
    airspaceZoneColor: project.airspaceZoneColor,
    aviationFee: project.aviationFee,
    landOwnerFormUploaded: project.landOwnerFormUploaded,
    flightHours: project.flightHours,
    scheduledDate: project.scheduledDate,
    estimatedDuration: project.estimatedDuration,
    completedAt: project.completedAt,
    photosUploadedAt: project.photosUploadedAt,
    clientNotifiedAt: project.clientNotifiedAt,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    clientName: client ? fullName(client) : '',
    clientEmail: client?.email ?? '',
    clientPhone: client?.phone ?? null,
    clientCompany: client?.companyName ?? null,
    hasImages: media.images > 0,
    hasVideos: media.videos > 0,
    imageCount: media.images,
    videoCount: media.videos,
    flightPlan: plan,
  }
}

export type PilotProject = ReturnType<typeof toPilotProject>

function withClients(rows: Project[], db: DbOrTx = getDb()): PilotProject[] {
  const clientIds = [...new Set(rows.map((r) => r.clientId))]
  const clients = clientIds.length ? db.select().from(users).where(inArray(users.id, clientIds)).all() : []
  const media = fileCountsByProject(rows.map((r) => r.id))
  return rows.map((row) =>
    toPilotProject(
      row,
      clients.find((c) => c.id === row.clientId) ?? null,
      media.get(row.id) ?? { images: 0, videos: 0 },
    ),
  )
}

/** Every project assigned to the pilot, open jobs first (then newest). */
export function listAssignedProjects(pilotId: number): PilotProject[] {
  const rows = getDb()
    .select()
    .from(projects)
    .where(eq(projects.pilotId, pilotId))
    .orderBy(desc(projects.updatedAt), desc(projects.id))
    .all()
  const open = rows.filter((r) => r.status !== 'completed')
  const done = rows.filter((r) => r.status === 'completed')
  return withClients([...open, ...done])
}

/** The project row, when it is assigned to this pilot; 404 otherwise. */
export function requireAssignedProject(pilotId: number, projectId: number, db: DbOrTx = getDb()): Project {
  const project = db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.pilotId, pilotId)))
    .get()
  if (!project) throw new DomainError(404, PROJECT_NOT_FOUND)
  return project
}

export function getAssignedProject(pilotId: number, projectId: number): PilotProject {
  return withClients([requireAssignedProject(pilotId, projectId)])[0]!
}

/**
 * 'Save Project Progress': logs the flight hours (a flight_logs row) and adds them to
 * the project's total, in one transaction. The status is left as it is. A completed
 * project takes no more progress (409).
 */
export function saveProgress(pilotId: number, projectId: number, flightHours: number) {
  if (!(flightHours > 0) || !Number.isFinite(flightHours)) {
    throw new DomainError(400, PROGRESS_MESSAGES.noDuration, {
      fieldErrors: { flightHours: [PROGRESS_MESSAGES.noDuration] },
    })
  }
  return getDb().transaction((tx) => {
    const project = requireAssignedProject(pilotId, projectId, tx)
    if (project.status === 'completed') throw new DomainError(409, PROGRESS_MESSAGES.completed)
    const log = tx.insert(flightLogs).values({ projectId, pilotId, hours: flightHours }).returning().get()
    const updated = tx
      .update(projects)
      .set({ flightHours: project.flightHours + flightHours, updatedAt: new Date() })
      .where(eq(projects.id, projectId))
      .returning({ id: projects.id, status: projects.status, flightHours: projects.flightHours })
      .get()!
    return { flightLog: log, project: updated }
  })
}

/**
 * The pilot marks the photo upload finished: noted on the project, and the photos go to
 * processing when the admin's setting says so. A project without photos or already
 * completed is refused.
 */
export async function markPhotosUploaded(pilotId: number, projectId: number, db: DbOrTx = getDb()) {
  const project = requireAssignedProject(pilotId, projectId, db)
  if (project.status === 'completed') throw new DomainError(409, PROGRESS_MESSAGES.completed)
  if (!projectPhotosWithoutAccessCheck(projectId, db).length)
    throw new DomainError(400, PROGRESS_MESSAGES.noPhotos)
  db.update(projects).set({ photosUploadedAt: new Date() }).where(eq(projects.id, projectId)).run()
  return { processingJob: await startProcessingAutomatically(pilotId, projectId, db) }
}

/**
 * The Flight Logs tab: the pilot's projects with uploaded media, each with its image
 * and video counts and the hours the pilot logged on it.
 */
export function listFlightLogs(pilotId: number) {
  const db = getDb()
  const assigned = db
    .select({
      id: projects.id,
      name: projects.name,
      location: projects.location,
      status: projects.status,
      completedAt: projects.completedAt,
    })
    .from(projects)
    .where(eq(projects.pilotId, pilotId))
    .all()
  const media = fileCountsByProject(assigned.map((p) => p.id))
  const withMedia = assigned.filter((p) => {
    const m = media.get(p.id)
    return m && m.images + m.videos > 0
  })
  const hours = withMedia.length
    ? db
        .select({
          projectId: flightLogs.projectId,
          hours: sum(flightLogs.hours),
          flights: count(),
          lastFlightAt: max(flightLogs.loggedAt),
        })
        .from(flightLogs)
        .where(
          and(
            eq(flightLogs.pilotId, pilotId),
            inArray(
              flightLogs.projectId,
              withMedia.map((p) => p.id),
            ),
          ),
        )
        .groupBy(flightLogs.projectId)
        .all()
    : []
  return withMedia
    .map((p) => {
      const logged = hours.find((h) => h.projectId === p.id)
      const m = media.get(p.id)!
      return {
        projectId: p.id,
        projectName: p.name,
        location: p.location,
        status: p.status,
        completedAt: p.completedAt,
        imageCount: m.images,
        videoCount: m.videos,
        flightHours: Math.round(Number(logged?.hours ?? 0) * 100) / 100,
        flights: logged?.flights ?? 0,
        lastFlightAt: logged?.lastFlightAt ?? null,
      }
    })
    .sort(
      (a, b) =>
        (b.lastFlightAt?.getTime() ?? 0) - (a.lastFlightAt?.getTime() ?? 0) || b.projectId - a.projectId,
    )
}
