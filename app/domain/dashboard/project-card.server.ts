/** The client's project cards (My Projects tab): the project, its flight plan read for display, its deliverables' dates. */
import { projectDeliverablesAvailability } from '#app/domain/files/availability.server.ts'
import { flightPlanView, type FlightPlanView } from '#app/domain/flight-plan/flight-plan.ts'
import { projectBasics } from '#app/domain/projects/project-basics.ts'
import { canCancel, canPay, canPlan, canRepeat } from '#app/domain/projects/status.ts'
import { plannedFlightHeightM } from '#app/domain/survey/project-plan.ts'
import { formatMetres } from '#app/lib/format/numbers.ts'
import type { Project } from '#db/schema.ts'

/** A project card on the My Projects tab, with its flight plan read for display. */
export function toProjectCard(project: Project) {
  const deliverables = projectDeliverablesAvailability(project)
  const parsedPlan = project.flightPlan ? flightPlanView(project.flightPlan) : null
  // The height the survey plan flies now (an admin may have changed it since the quote).
  const heightM = plannedFlightHeightM(project.surveyPlan)
  const flightPlan: FlightPlanView | null =
    parsedPlan && heightM !== null
      ? { ...parsedPlan, recommendedFlightHeight: `${formatMetres(heightM)} AGL` }
      : parsedPlan
  return {
    ...projectBasics(project),
    quoteAmount: project.quoteAmount,
    repeatDiscountPercent: project.repeatDiscountPercent,
    repeatDiscount: project.repeatDiscount,
    repeatOfProjectId: project.repeatOfProjectId,
    siteId: project.siteId,
    nearestHub: project.nearestHub,
    distanceFromHub: project.distanceFromHub,
    quotedAt: project.quotedAt ? project.quotedAt.toISOString() : null,
    createdAt: project.createdAt.toISOString(),
    completedAt: project.completedAt ? project.completedAt.toISOString() : null,
    /** When the client can no longer download the deliverables (a month after completion, as the admin kept them, or as the site needs them). */
    deliverablesUntil: deliverables.until?.toISOString() ?? null,
    /** The site waits for its next survey: the deliverables stay until a month after it (at the latest `deliverablesUntil`). */
    deliverablesUntilNextSurvey: deliverables.untilNextSurvey,
    flightPlan,
    canPay: canPay(project),
    canPlan: canPlan(project),
    canCancel: canCancel(project),
    canRepeat: canRepeat(project),
  }
}
export type ProjectCard = ReturnType<typeof toProjectCard>
