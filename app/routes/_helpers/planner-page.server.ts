/**
 * What /flight-planner loads: a signed-in client's project with its stored areas, the
 * active hubs and the pricing and survey settings for the live quote, and the quote
 * itself once the plan is saved (`view=quote`, or `payment=true` on the way to paying).
 * Without an id the page is the sessionStorage hand-off.
 */
import { redirect } from '@remix-run/node'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { isValidScreenshot, quotedFlightPlan } from '#app/domain/flight-plan/flight-plan.ts'
import { summariseQuote } from '#app/domain/flight-plan/quote-summary.ts'
import { listActiveHubs } from '#app/domain/hubs/active-hubs.server.ts'
import { NO_FLIGHT_HUBS_MESSAGE } from '#app/domain/pricing/quote.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import {
  getClientProject,
  PAID_PROJECT_LOCKED,
  PROJECT_NOT_PLANNABLE,
} from '#app/domain/projects/projects.server.ts'
import { canPlan } from '#app/domain/projects/status.ts'
import { plannerSurveySettings } from '#app/domain/survey/project-plan.server.ts'
import { readSurveyPlan } from '#app/domain/survey/project-plan.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'
import type { User } from '#db/schema.ts'

/** The planner is the client's: any other role goes to its dashboard. */
export async function requirePlannerClient(request: Request) {
  const user = await requireUser(request)
  if (user.role !== 'client') throw redirect('/dashboard')
  return user
}

/** The areas as the no-JS form's text: one 'lat, lng' per line, a blank line between areas. */
function areasAsText(areas: Array<{ coordinates: Array<{ latitude: number; longitude: number }> }>) {
  return areas.map((a) => a.coordinates.map((p) => `${p.latitude}, ${p.longitude}`).join('\n')).join('\n\n')
}

/**
 * The page for `?projectId=`; without an id, the hand-off (with JavaScript the page reads
 * the sessionStorage entry; without, it goes back).
 */
export async function plannerPageData(user: Pick<User, 'id'>, url: URL) {
  const rawId = url.searchParams.get('projectId')
  const payment = url.searchParams.get('payment') === 'true'
  if (!rawId) return { handOff: true as const, payment }
  return plannerProjectData(user, url, rawId, payment)
}

/** The planner of one project; redirects to the dashboard when it is not the client's or cannot be read. */
async function plannerProjectData(user: Pick<User, 'id'>, url: URL, rawId: string, payment: boolean) {
  const id = Number(rawId)
  if (!Number.isInteger(id) || id <= 0) throw redirect('/dashboard')
  let project
  try {
    project = getClientProject(user.id, id)
  } catch (error) {
    if (isDomainError(error)) throw redirect('/dashboard')
    throw error
  }
  const plan = quotedFlightPlan(project.flightPlan)
  // Stored data that cannot be read sends the client back.
  if (project.flightPlan && !plan) throw redirect('/dashboard')

  const wantsQuote = url.searchParams.get('view') === 'quote' || payment
  const quote =
    wantsQuote && plan && project.status === 'pending'
      ? summariseQuote(project, plan, readSurveyPlan(project.surveyPlan)?.summary ?? null)
      : null
  if (!canPlan(project) && !quote) {
    throw await redirectWithToast('/dashboard?tab=projects', {
      title: project.isPaid ? PAID_PROJECT_LOCKED : PROJECT_NOT_PLANNABLE,
      type: 'info',
    })
  }
  const activeHubs = listActiveHubs()
  const areas = plan
    ? plan.areas.map((a) => a.coordinates.map((p) => ({ latitude: p.latitude, longitude: p.longitude })))
    : []
  return {
    handOff: false as const,
    project: {
      id: project.id,
      name: project.name,
      location: project.location,
      latitude: project.latitude,
      longitude: project.longitude,
      status: project.status,
      isPaid: project.isPaid,
      canPlan: canPlan(project),
      /** A repeat's live quote shows the repeat discount its server quote takes. */
      isRepeat: project.repeatOfProjectId !== null,
    },
    areas,
    coordinatesText: areasAsText(areas.map((coordinates) => ({ coordinates }))),
    hubs: activeHubs.map((h) => ({
      id: h.id,
      name: h.name,
      latitude: h.latitude,
      longitude: h.longitude,
      address: h.address,
    })),
    hubsError: activeHubs.length ? null : NO_FLIGHT_HUBS_MESSAGE,
    settings: getPricingSettings(),
    surveySettings: plannerSurveySettings(project.projectType),
    tileUrl: getEnv().TILE_URL,
    streetTileUrl: getEnv().STREET_TILE_URL,
    quote,
    hasScreenshot: Boolean(plan && isValidScreenshot(plan.screenshot)),
    tab: url.searchParams.get('tab') === 'airspace' ? ('airspace' as const) : ('plan' as const),
  }
}
export type PlannerProjectData = Awaited<ReturnType<typeof plannerProjectData>>
