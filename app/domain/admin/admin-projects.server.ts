/**
 * Projects as the admin runs them: the paged 'All Projects' list, the project
 * management dialog, pilot assignment (job card to the pilot, note to the client) and
 * status updates (client e-mailed when there is a message). Audited.
 */
import { fileCountsByProject } from '#app/domain/files/file-queries.server.ts'
import { summariseFlightPlan } from '#app/domain/flight-plan/flight-plan.ts'
import { pilotDocumentProblem } from '#app/domain/operator/expiry.ts'
import { statusBadge } from '#app/domain/projects/status.ts'
import { stopShareLinksOf } from '#app/domain/sharing/share-links.server.ts'
import { personName } from '#app/domain/users/person-name.server.ts'
import { fullName } from '#app/domain/users/person-name.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { appUrl } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { formatSquareMetres } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { clampPage } from '#app/lib/http/query.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import { renderEmail } from '#app/lib/mail/templates.ts'
import {
  PROJECT_STATUSES,
  projectFiles,
  projects,
  users,
  type Project,
  type ProjectStatus,
} from '#db/schema.ts'
import { and, count, desc, eq, or, sql, type like, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'

import { type AdminStatus } from './schemas.ts'

export const PROJECTS_PAGE_SIZE = 20

export interface ProjectListQuery {
  q?: string | null
  status?: string | null
  page?: number
}

const pilotUsers = alias(users, 'pilot')

function listWhere(query: ProjectListQuery): SQL | undefined {
  const conditions: SQL[] = []
  if (query.status && (PROJECT_STATUSES as readonly string[]).includes(query.status)) {
    conditions.push(eq(projects.status, query.status as ProjectStatus))
  }
  const q = query.q?.trim()
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    const match = (column: SQL.Aliased | Parameters<typeof like>[0]) =>
      sql`${column} like ${pattern} escape '\\'`
    const idMatch = /^#?\d+$/.test(q) ? [eq(projects.id, Number(q.replace('#', '')))] : []
    conditions.push(
      or(
        ...idMatch,
        match(projects.name),
        match(projects.location),
        match(users.email),
        match(personName(users)),
        match(users.companyName),
      )!,
    )
  }
  return conditions.length ? and(...conditions) : undefined
}

/**
 * One page of projects, newest first. The page is read by the created_at index (or
 * the status index when filtered) with LIMIT/OFFSET; media counts only for that page.
 */
export function listAllProjects(query: ProjectListQuery = {}) {
  const db = getDb()
  const where = listWhere(query)
  // Only a text search needs the client columns; without one, count from the projects index alone.
  const countQuery = query.q?.trim()
    ? db.select({ n: count() }).from(projects).innerJoin(users, eq(users.id, projects.clientId)).where(where)
    : db.select({ n: count() }).from(projects).where(where)
  const total = countQuery.get()?.n ?? 0
  const pageCount = Math.max(1, Math.ceil(total / PROJECTS_PAGE_SIZE))
  const page = clampPage(query.page, pageCount)
  const rows = db
    .select({
      id: projects.id,
      name: projects.name,
      location: projects.location,
      status: projects.status,
      quoteAmount: projects.quoteAmount,
      isPaid: projects.isPaid,
      landOwnerFormUploaded: projects.landOwnerFormUploaded,
      createdAt: projects.createdAt,
      clientId: projects.clientId,
      clientName: personName(users),
      clientEmail: users.email,
      pilotId: projects.pilotId,
      pilotFirstName: pilotUsers.firstName,
      pilotLastName: pilotUsers.lastName,
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.clientId))
    .leftJoin(pilotUsers, eq(pilotUsers.id, projects.pilotId))
    .where(where)
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(PROJECTS_PAGE_SIZE)
    .offset((page - 1) * PROJECTS_PAGE_SIZE)
    .all()
  const media = fileCountsByProject(rows.map((r) => r.id))
  return {
    projects: rows.map(({ pilotFirstName, pilotLastName, ...r }) => ({
      ...r,
      pilotName: pilotFirstName ? `${pilotFirstName} ${pilotLastName}` : null,
      imageCount: media.get(r.id)?.images ?? 0,
      videoCount: media.get(r.id)?.videos ?? 0,
    })),
    total,
    page,
    pageCount,
    pageSize: PROJECTS_PAGE_SIZE,
  }
}

function requireProject(id: number): Project {
  const project = getDb().select().from(projects).where(eq(projects.id, id)).get()
  if (!project) throw new DomainError(404, 'Project not found')
  return project
}

/** Everything the project management dialog shows. */
export function getProjectForAdmin(id: number) {
  const project = requireProject(id)
  const db = getDb()
  const client = db.select().from(users).where(eq(users.id, project.clientId)).get()
  const pilot = project.pilotId ? db.select().from(users).where(eq(users.id, project.pilotId)).get() : null
  const files = db
    .select({
      id: projectFiles.id,
      originalName: projectFiles.originalName,
      fileType: projectFiles.fileType,
      fileSize: projectFiles.fileSize,
      fileCategory: projectFiles.fileCategory,
      uploadedBy: projectFiles.uploadedBy,
      createdAt: projectFiles.createdAt,
      removedAt: projectFiles.removedAt,
      withheld: projectFiles.withheld,
    })
    .from(projectFiles)
    .where(eq(projectFiles.projectId, id))
    .all()
  const { flightPlan, ...rest } = project
  return {
    project: rest,
    flightPlan: summariseFlightPlan(flightPlan),
    client: client
      ? {
          id: client.id,
          name: fullName(client),
          email: client.email,
          phone: client.phone,
          companyName: client.companyName,
        }
      : null,
    pilot: pilot ? { id: pilot.id, name: fullName(pilot), email: pilot.email } : null,
    files,
  }
}

export const INVALID_PILOT_MESSAGE = 'Please choose an active pilot'

function activePilot(pilotId: number) {
  const pilot = getDb().select().from(users).where(eq(users.id, pilotId)).get()
  if (!pilot || pilot.role !== 'pilot' || !pilot.isActive)
    throw new DomainError(400, INVALID_PILOT_MESSAGE, { fieldErrors: { pilotId: [INVALID_PILOT_MESSAGE] } })
  // SACAA Part 101: no flight with an expired licence or medical.
  const problem = pilotDocumentProblem(pilot, todayInSouthAfrica())
  if (problem) throw new DomainError(409, problem, { fieldErrors: { pilotId: [problem] } })
  return pilot
}

function projectSnapshot(p: Project) {
  return { status: p.status, statusMessage: p.statusMessage, pilotId: p.pilotId }
}

/**
 * Assigns a pilot. A pending project becomes 'assigned'; later states are kept.
 * Sends the job card to the pilot and a note to the client (after commit); `clientMessage`
 * goes into that note, so an assignment with a message is one mail to the client.
 */
export async function assignPilot(
  actorId: number,
  projectId: number,
  pilotId: number,
  { clientMessage = '' }: { clientMessage?: string } = {},
) {
  const before = requireProject(projectId)
  const pilot = activePilot(pilotId)
  const after = getDb().transaction((tx) => {
    const nextStatus: ProjectStatus =
      before.status === 'pending' || before.status === 'draft' ? 'assigned' : before.status
    const updated = tx
      .update(projects)
      .set({ pilotId, status: nextStatus, updatedAt: new Date() })
      .where(eq(projects.id, projectId))
      .returning()
      .get()!
    recordAudit(
      {
        actorId,
        action: 'project.assign-pilot',
        entityType: 'project',
        entityId: projectId,
        before: projectSnapshot(before),
        after: projectSnapshot(updated),
      },
      tx,
    )
    return updated
  })
  const client = getDb().select().from(users).where(eq(users.id, after.clientId)).get()
  await Promise.all([
    sendJobCard(after, pilot, client ?? null),
    client ? sendAssignmentNotice(after, pilot, client, clientMessage) : null,
  ])
  return after
}

/** Sets the status; a non-empty message is e-mailed to the client (unless `mailClient` is false: already told). */
export async function updateProjectStatus(
  actorId: number,
  projectId: number,
  status: AdminStatus,
  statusMessage: string,
  { mailClient = true }: { mailClient?: boolean } = {},
) {
  const before = requireProject(projectId)
  const after = getDb().transaction((tx) => {
    const updated = tx
      .update(projects)
      .set({
        status,
        statusMessage: statusMessage || before.statusMessage,
        completedAt: status === 'completed' ? (before.completedAt ?? new Date()) : before.completedAt,
        updatedAt: new Date(),
      })
      .where(eq(projects.id, projectId))
      .returning()
      .get()!
    // Moved back from completed: its share links stop with it.
    if (before.status === 'completed' && status !== 'completed') stopShareLinksOf(projectId, actorId, tx)
    recordAudit(
      {
        actorId,
        action: 'project.status',
        entityType: 'project',
        entityId: projectId,
        before: projectSnapshot(before),
        after: { ...projectSnapshot(updated), message: statusMessage },
      },
      tx,
    )
    return updated
  })
  if (statusMessage && mailClient) {
    const client = getDb().select().from(users).where(eq(users.id, after.clientId)).get()
    if (client) await sendStatusUpdate(after, client, statusMessage)
  }
  return after
}

/**
 * The dialog's 'Save Changes': a changed status becomes a status
 * update (with the optional message), a different pilot becomes an assignment.
 */
export async function saveProjectChanges(
  actorId: number,
  projectId: number,
  input: { status: AdminStatus; pilotId: number | null; statusMessage: string },
) {
  const before = requireProject(projectId)
  const statusChanged = input.status !== before.status
  const pilotChanged = input.pilotId !== null && input.pilotId !== before.pilotId
  if (pilotChanged) activePilot(input.pilotId!)
  // With a new pilot, the message rides in the assignment note: the client gets one mail.
  if (pilotChanged)
    await assignPilot(actorId, projectId, input.pilotId!, { clientMessage: input.statusMessage })
  // An unchanged status select keeps what the assignment set (pending → assigned).
  if (statusChanged || input.statusMessage) {
    const current = requireProject(projectId).status
    const status = statusChanged ? input.status : (current as AdminStatus)
    await updateProjectStatus(actorId, projectId, status, input.statusMessage, { mailClient: !pilotChanged })
  }
  return { statusChanged, pilotChanged, project: requireProject(projectId) }
}

function areaLines(project: Project) {
  const plan = summariseFlightPlan(project.flightPlan)
  if (plan.status !== 'ok' || !plan.areas.length) {
    return project.areaSqm ? formatSquareMetres(project.areaSqm) : 'See the flight plan'
  }
  return plan.areas
    .map(
      (a) =>
        `Area ${a.areaNumber}: ${a.areaSqm ? formatSquareMetres(a.areaSqm) : 'size not given'} (${a.points} points)`,
    )
    .join('; ')
}

async function sendJobCard(
  project: Project,
  pilot: typeof users.$inferSelect,
  client: typeof users.$inferSelect | null,
) {
  const link = `${appUrl()}/dashboard?project=${project.id}`
  return sendEmailSafely({
    to: pilot.email,
    subject: `Job card: ${project.name} (project #${project.id})`,
    ...renderEmail({
      heading: 'New job card',
      paragraphs: [
        `Hi ${pilot.firstName},`,
        'You have been assigned a survey flight. The details are below; the full flight plan is on your dashboard.',
      ],
      details: [
        ['Project', `${project.name} (#${project.id})`],
        [
          'Client',
          client ? `${fullName(client)}${client.companyName ? `, ${client.companyName}` : ''}` : 'Unknown',
        ],
        ['Client contact', client ? `${client.email}${client.phone ? `, +27 ${client.phone}` : ''}` : '—'],
        [
          'Site',
          project.location ??
            (project.latitude != null ? `${project.latitude}, ${project.longitude}` : 'See the flight plan'),
        ],
        ['Areas', areaLines(project)],
        ['Deadline', project.deadline ?? 'Not set'],
        ['Scheduled date', project.scheduledDate ?? 'To be arranged'],
        ['Status', statusBadge(project.status).label],
      ],
      action: { label: 'Open the job on your dashboard', url: link },
    }),
  })
}

async function sendAssignmentNotice(
  project: Project,
  pilot: typeof users.$inferSelect,
  client: typeof users.$inferSelect,
  message: string,
) {
  return sendEmailSafely({
    to: client.email,
    subject: `A pilot has been assigned to ${project.name}`,
    ...renderEmail({
      heading: 'Your survey has a pilot',
      paragraphs: [
        `Hi ${client.firstName},`,
        `${fullName(pilot)} has been assigned to fly "${project.name}". We will be in touch to confirm the flight date.`,
        ...(message ? [message] : []),
      ],
      action: { label: 'View your project', url: `${appUrl()}/dashboard` },
    }),
  })
}

async function sendStatusUpdate(project: Project, client: typeof users.$inferSelect, message: string) {
  return sendEmailSafely({
    to: client.email,
    subject: `Update on ${project.name}: ${statusBadge(project.status).label}`,
    ...renderEmail({
      heading: 'Project update',
      paragraphs: [
        `Hi ${client.firstName},`,
        `Your project "${project.name}" is now ${statusBadge(project.status).label}.`,
        message,
      ],
      action: { label: 'View your project', url: `${appUrl()}/dashboard` },
    }),
  })
}
