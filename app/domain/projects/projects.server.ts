/**
 * A client's projects: create a draft, list, read,
 * delete a draft, and complete the flight plan (areas → authoritative quote → pending).
 * Only the owner sees or changes a project; anyone else gets "not found" (404), so
 * existence does not leak.
 */
import {
  hectares,
  isValidScreenshot,
  MAX_SCREENSHOT_CHARS,
  MAX_WIND,
  planPricing,
  quoteExpiry,
  RETURN_TO_BASE,
  SURVEY_EQUIPMENT,
  withoutScreenshot,
  type FlightPlan,
} from '#app/domain/flight-plan/flight-plan.ts'
import { openRing, surveyAreaSqm, SurveyAreasSchema, type SurveyArea } from '#app/domain/geometry/areas.ts'
import { supersedeOpenPayments } from '#app/domain/payments/attempts.server.ts'
import { projectPricingColumns } from '#app/domain/pricing/quote.server.ts'
import { groupBySameGround } from '#app/domain/projects/site-membership.server.ts'
import { initialSurveyPlan, storedSurveyPlan } from '#app/domain/survey/project-plan.server.ts'
import { flightPatternText, readSurveyPlan, type SurveySettings } from '#app/domain/survey/project-plan.ts'
import { takeDailyAllowance } from '#app/domain/users/daily-allowance.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatMetres } from '#app/lib/format/numbers.ts'
import type { FieldErrors } from '#app/lib/http/api.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { projects, type Project } from '#db/schema.ts'
import { and, desc, eq } from 'drizzle-orm'
import { z } from 'zod'

import { PROJECT_NOT_FOUND } from './access.server.ts'
import type { DraftInput } from './project-schemas.ts'
import { quoteProjectAreas, type ProjectQuote } from './quoting.server.ts'
import { canPlan } from './status.ts'

/**
 * A refused project request. The client project API answers `{ error, message }` (the
 * draft delete's callers read `message`, the rest `error`), so both carry the text.
 */
export function projectError(status: 400 | 403 | 404 | 409, message: string, fieldErrors?: FieldErrors) {
  return new DomainError(status, message, { fieldErrors, extra: { message } })
}

export const DELETE_DRAFT_FAILED = 'Failed to delete draft project'
export const DRAFT_DELETED = 'Draft project deleted successfully'
/** The toast when a quote turns a draft into a pending project, and its failure. */
export const PROJECT_CREATED =
  'Project created successfully! Pay the quote to book your flight; an admin assigns a pilot once your payment is confirmed.'
export const createProjectFailed = (message: string) => `Failed to create project: ${message}`
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
 * stays as stored JSON text (an object or a JSON string is accepted), minus the screenshot,
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
    flightPlan,
    ...visible
  } = project
  // The API's name for the stored plan (the column's), kept for its callers.
  return { ...visible, polygonGeoJson: withoutScreenshot(flightPlan) }
}

export function listClientProjects(clientId: number, db: DbOrTx = getDb()) {
  return db
    .select()
    .from(projects)
    .where(eq(projects.clientId, clientId))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .all()
}

/** The project if this client owns it; otherwise a 404 DomainError. */
export function getClientProject(clientId: number, id: number, db: DbOrTx = getDb()): Project {
  const project = db
    .select()
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.clientId, clientId)))
    .get()
  if (!project) throw projectError(404, PROJECT_NOT_FOUND)
  return project
}

/** Deletes a draft. Anything else (or someone else's project) fails with the product's message. */
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
  throw projectError(exists ? 409 : 404, DELETE_DRAFT_FAILED)
}

/**
 * The body of `PUT /api/client/projects/{id}/complete` and of the planner's Generate
 * Quote: the areas and, optionally, the map screenshot. Other flight-plan
 * fields a client sends are ignored: the server builds the plan from its own data.
 */
const CompleteFlightPlanSchema = z.object({
  areas: SurveyAreasSchema,
  screenshot: z.string().max(MAX_SCREENSHOT_CHARS).optional().catch(undefined),
})

function round2(value: number) {
  return Math.round(value * 100) / 100
}

/** The flight plan as stored. Pure: tested on its own. */
function buildFlightPlan(
  project: Pick<
    Project,
    'name' | 'location' | 'latitude' | 'longitude' | 'projectType' | 'deadline' | 'requirements'
  >,
  areas: SurveyArea[],
  quote: ProjectQuote,
  options: { quotedAt: Date; screenshot?: string; flightPattern: string; flightHeightM: number },
): FlightPlan {
  const planAreas = areas.map((area, index) => {
    const ring = openRing(area.coordinates)
    const sqm = round2(surveyAreaSqm(area))
    return {
      areaNumber: index + 1,
      area: sqm,
      areaHectares: hectares(sqm),
      coordinates: ring.map(([longitude, latitude], i) => ({ pointNumber: i + 1, latitude, longitude })),
      pilotInstructions: {
        flightPattern: options.flightPattern,
        returnToBase: RETURN_TO_BASE,
        boundaryPoints: ring.length,
      },
    }
  })
  const totalArea = round2(quote.areaSqm)
  const plan: FlightPlan = {
    projectName: project.name,
    address: project.location,
    projectAddress: project.location,
    coordinates:
      project.latitude !== null && project.longitude !== null
        ? { lat: project.latitude, lng: project.longitude }
        : null,
    projectType: project.projectType,
    deadline: project.deadline,
    requirements: project.requirements,
    areas: planAreas,
    totalArea,
    totalAreaHectares: hectares(totalArea),
    pricing: planPricing(quote),
    airspaceZone: quote.airspaceZone,
    surveyInstructions: {
      totalSurveyAreas: planAreas.length,
      recommendedFlightHeight: `${formatMetres(options.flightHeightM)} AGL`,
      windConditions: MAX_WIND,
      equipment: SURVEY_EQUIPMENT,
    },
    quotedAt: options.quotedAt.toISOString(),
    validUntil: quoteExpiry(options.quotedAt).toISOString(),
  }
  if (options.screenshot && isValidScreenshot(options.screenshot)) plan.screenshot = options.screenshot
  return plan
}

const NO_HUBS_QUOTE_MESSAGE = 'No hubs configured'

function assertPlannable(project: Project) {
  if (project.isPaid) throw projectError(409, PAID_PROJECT_LOCKED)
  if (!canPlan(project)) throw projectError(409, PROJECT_NOT_PLANNABLE)
}

/**
 * Generate Quote: validates the areas, prices them with the pricing engine, stores the
 * flight plan, the pricing columns and the internal split, and moves the project to
 * `pending` with `quotedAt` — in one transaction that re-checks the project's state.
 * A repeat project (`repeatOfProjectId`) is priced with the repeat discount;
 * `surveySettings` replaces the project type's default mission (a repeat keeps the original's).
 * A project over the same ground as one of the client's flown or paid projects joins its site.
 */
export function completeFlightPlan(
  clientId: number,
  id: number,
  input: unknown,
  db = getDb(),
  options: { now?: Date; surveySettings?: SurveySettings } = {},
): Project {
  const parsed = CompleteFlightPlanSchema.safeParse(input)
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {}
    for (const issue of parsed.error.issues)
      (fieldErrors[issue.path.join('.') || 'form'] ??= []).push(issue.message)
    throw projectError(400, parsed.error.issues[0]?.message ?? 'Invalid flight plan', fieldErrors)
  }
  const project = getClientProject(clientId, id, db)
  assertPlannable(project)
  const { quote, split } = quoteProjectAreas(parsed.data.areas, db, {
    repeat: project.repeatOfProjectId !== null,
  })
  if (quote.noHubs) throw projectError(409, NO_HUBS_QUOTE_MESSAGE)
  const quotedAt = options.now ?? new Date()
  // Screenshots count against the client's daily allowance; past it the quote is stored
  // without one (it is optional), so re-planning never fails for it.
  const { screenshot } = parsed.data
  const keepScreenshot =
    screenshot !== undefined &&
    isValidScreenshot(screenshot) &&
    takeDailyAllowance('screenshots', clientId, screenshot.length)
  // The survey mission for the project type's deliverable, stored with the quote.
  // A repeat keeps the settings it was copied with when the client re-plans it.
  const surveySettings =
    options.surveySettings ??
    (project.repeatOfProjectId !== null ? readSurveyPlan(project.surveyPlan)?.settings : undefined)
  const survey = surveySettings
    ? storedSurveyPlan(parsed.data.areas, surveySettings, db)
    : initialSurveyPlan(project.projectType, parsed.data.areas, db)

  return db.transaction((tx) => {
    const current = getClientProject(clientId, id, tx)
    assertPlannable(current)
    const plan = buildFlightPlan(current, parsed.data.areas, quote, {
      quotedAt,
      screenshot: keepScreenshot ? screenshot : undefined,
      flightPattern: flightPatternText(survey.settings),
      flightHeightM: survey.summary.altitudeM,
    })
    // A re-plan voids the checkout made for the old plan: the terms must be accepted again.
    supersedeOpenPayments(tx, id)
    const quoted = tx
      .update(projects)
      .set({
        flightPlan: JSON.stringify(plan),
        surveyPlan: JSON.stringify(survey),
        ...projectPricingColumns({ quote, split }, quotedAt),
        status: 'pending',
      })
      .where(and(eq(projects.id, id), eq(projects.clientId, clientId)))
      .returning()
      .get()!
    // Projects flown over the same areas form a site.
    return groupBySameGround(quoted, parsed.data.areas, quotedAt, tx)
  })
}

/**
 * A project and its flight plan in one call (`POST /api/client/create-project`): the draft
 * and Generate Quote run in one transaction, so a plan that fails its checks or its quote
 * leaves no stray draft behind.
 */
export function createQuotedProject(clientId: number, draft: DraftInput, flightPlan: unknown): Project {
  return getDb().transaction((tx) => {
    const created = createDraft(clientId, draft, tx)
    return completeFlightPlan(clientId, created.id, flightPlan, tx)
  })
}
