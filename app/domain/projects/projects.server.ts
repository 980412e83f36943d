/**
 * A client's projects (decisions.md "Project lifecycle"): create a draft, list, read,
 * delete a draft, and complete the flight plan (areas → authoritative quote → pending).
 * Only the owner sees or changes a project; anyone else gets "not found" (404), so
 * existence does not leak.
 */
import { and, desc, eq } from 'drizzle-orm'
import { projects, type Project } from '#db/schema.ts'
import { getDb, type DbOrTx } from '#app/domain/db/db.server.ts'
import { parseFlightPlan, type FlightPlanView } from './flight-plan.ts'
import type { DraftInput } from './project-schemas.ts'
import { canPay, canPlan } from './status.ts'

export class ProjectError extends Error {
  constructor(
    public status: 400 | 403 | 404 | 409,
    message: string,
  ) {
    super(message)
    this.name = 'ProjectError'
  }
}

export const PROJECT_NOT_FOUND = 'Project not found'
export const DELETE_DRAFT_FAILED = 'Failed to delete draft project'
export const DRAFT_DELETED = 'Draft project deleted successfully'
export const PAID_PROJECT_LOCKED = 'This project has been paid for; its flight plan can no longer be changed.'
export const PROJECT_NOT_PLANNABLE = 'Only draft projects and unpaid quotes can be planned.'

export function createDraft(clientId: number, input: DraftInput, db: DbOrTx = getDb()): Project {
  return db
    .insert(projects)
    .values({
      clientId,
      name: input.name,
      projectType: input.projectType,
      location: input.address ?? null,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      deadline: input.deadline ?? null,
      description: input.description ?? null,
      requirements: input.requirements ?? null,
      status: 'draft',
    })
    .returning()
    .get()
}

/**
 * What a client may see of its project: everything except the internal split (base
 * cost, margin, shares, payout), which is for the admin's finances only. The flight plan
 * stays as stored JSON text (spec: "an object or a JSON string"), minus the screenshot,
 * which is served by its own route.
 */
export function toClientProject(project: Project) {
  const {
    baseCost: _baseCost,
    profitMargin: _profitMargin,
    platformShare: _platformShare,
    operatorShare: _operatorShare,
    operatorPayout: _operatorPayout,
    termsAcceptedIp: _termsAcceptedIp,
    polygonGeoJson,
    ...visible
  } = project
  return { ...visible, polygonGeoJson: withoutScreenshot(polygonGeoJson) }
}
export type ClientProject = ReturnType<typeof toClientProject>

function withoutScreenshot(raw: string | null) {
  if (!raw || !raw.includes('"screenshot"')) return raw
  try {
    const { screenshot: _screenshot, ...rest } = JSON.parse(raw) as Record<string, unknown>
    return JSON.stringify(rest)
  } catch {
    return raw
  }
}

export function listClientProjects(clientId: number, db: DbOrTx = getDb()) {
  return db
    .select()
    .from(projects)
    .where(eq(projects.clientId, clientId))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .all()
}

/** The project if this client owns it; otherwise ProjectError 404. */
export function getClientProject(clientId: number, id: number, db: DbOrTx = getDb()): Project {
  const project = db
    .select()
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.clientId, clientId)))
    .get()
  if (!project) throw new ProjectError(404, PROJECT_NOT_FOUND)
  return project
}

/** Deletes a draft. Anything else (or someone else's project) fails with the spec's message. */
export function deleteDraft(clientId: number, id: number, db: DbOrTx = getDb()) {
  const removed = db
    .delete(projects)
    .where(and(eq(projects.id, id), eq(projects.clientId, clientId), eq(projects.status, 'draft')))
    .returning({ id: projects.id })
    .get()
  if (removed) return removed
  const exists = db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.clientId, clientId)))
    .get()
  throw new ProjectError(exists ? 409 : 404, DELETE_DRAFT_FAILED)
}

/** A project card on the My Projects tab, with its flight plan read for display. */
export function toProjectCard(project: Project) {
  const flightPlan: FlightPlanView | null = project.polygonGeoJson ? parseFlightPlan(project.polygonGeoJson) : null
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    projectType: project.projectType,
    location: project.location,
    latitude: project.latitude,
    longitude: project.longitude,
    deadline: project.deadline,
    requirements: project.requirements,
    status: project.status,
    statusMessage: project.statusMessage,
    isPaid: project.isPaid,
    quoteAmount: project.quoteAmount,
    areaSqm: project.areaSqm,
    nearestHub: project.nearestHub,
    distanceFromHub: project.distanceFromHub,
    airspaceZone: project.airspaceZone,
    quotedAt: project.quotedAt ? project.quotedAt.toISOString() : null,
    createdAt: project.createdAt.toISOString(),
    hasFlightPlanData: Boolean(project.polygonGeoJson),
    flightPlan,
    canPay: canPay(project),
    canPlan: canPlan(project),
  }
}
export type ProjectCard = ReturnType<typeof toProjectCard>
