/**
 * "Fly this again": a new project over exactly the same areas as a flown or paid
 * one — same project type, survey settings, location and name — priced through the usual
 * quote path at today's settings with the repeat discount, on the original's site.
 * The page action, `POST /api/client/projects/{id}/repeat` and the site schedule all call
 * `repeatProject`.
 */
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import { completeFlightPlan, getClientProject, projectError } from '#app/domain/projects/projects.server.ts'
import { canRepeat } from '#app/domain/projects/status.ts'
import { readSurveyPlan } from '#app/domain/survey/project-plan.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { projects, type Project, type RepeatInterval } from '#db/schema.ts'

import { joinSiteOf, siteOf } from '../projects/site-membership.server.ts'
import { updateSite } from './sites.server.ts'

const REPEAT_MESSAGES = {
  notYet: 'Only a paid or completed project can be flown again.',
  cancelled: 'A cancelled project cannot be flown again.',
  unreadablePlan: 'The flight plan of this project could not be read, so it cannot be flown again.',
  badDate: 'The preferred date must be a date (YYYY-MM-DD).',
  scheduleNotYet: 'Only a paid or completed project can be repeated on a schedule.',
} as const

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

function assertRepeatable(project: Project, notYet: string = REPEAT_MESSAGES.notYet) {
  if (canRepeat(project)) return
  throw projectError(409, project.status === 'cancelled' ? REPEAT_MESSAGES.cancelled : notYet)
}

/**
 * A quoted repeat of the client's own project: status `pending`, unpaid, waiting for the
 * terms and PayFast exactly as a freshly quoted project. `preferredDate` (YYYY-MM-DD, from a
 * site schedule) becomes the new project's deadline. 404 for a project that is not the
 * client's, 409 for one that cannot be repeated (yet). One transaction: the caller's, when
 * `db` is one.
 */
export function repeatProject(
  clientId: number,
  projectId: number,
  options: { preferredDate?: string | null; now?: Date } = {},
  db: DbOrTx = getDb(),
): Project {
  const now = options.now ?? new Date()
  const preferredDate = options.preferredDate ?? null
  if (preferredDate !== null && !ISO_DATE.test(preferredDate))
    throw projectError(400, REPEAT_MESSAGES.badDate)
  return db.transaction((tx) => {
    const original = getClientProject(clientId, projectId, tx)
    assertRepeatable(original)
    const areas = flightPlanAreas(original.flightPlan)
    if (!areas) throw projectError(409, REPEAT_MESSAGES.unreadablePlan)
    const draft = tx
      .insert(projects)
      .values({
        clientId,
        name: original.name,
        description: original.description,
        projectType: original.projectType,
        location: original.location,
        latitude: original.latitude,
        longitude: original.longitude,
        requirements: original.requirements,
        deadline: preferredDate,
        status: 'draft',
        repeatOfProjectId: original.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get()
    const siteId = joinSiteOf(draft.id, original, now, tx)
    const quoted = completeFlightPlan(clientId, draft.id, { areas }, tx, {
      now,
      surveySettings: readSurveyPlan(original.surveyPlan)?.settings,
    })
    recordAudit(
      {
        actorId: clientId,
        action: 'project.repeat',
        entityType: 'project',
        entityId: quoted.id,
        before: { repeatOf: original.id, siteId: original.siteId },
        after: {
          siteId,
          status: quoted.status,
          deadline: quoted.deadline,
          quoteAmount: quoted.quoteAmount,
          repeatDiscountPercent: quoted.repeatDiscountPercent,
          repeatDiscount: quoted.repeatDiscount,
        },
      },
      tx,
    )
    return quoted
  })
}

/**
 * "Repeat on a schedule" from a project's details: the project's site — made now,
 * named after it, when it was never repeated — gets the schedule, counted as the site page
 * counts it (`updateSite`). One transaction. 404 for another client's project, 409 for one
 * that is not paid or completed. The site's id.
 */
export function scheduleProjectRepeats(
  clientId: number,
  projectId: number,
  repeatEvery: RepeatInterval,
  { now = new Date() }: { now?: Date } = {},
  db: DbOrTx = getDb(),
): number {
  return db.transaction((tx) => {
    const project = getClientProject(clientId, projectId, tx)
    assertRepeatable(project, REPEAT_MESSAGES.scheduleNotYet)
    const siteId = siteOf(project, now, tx)
    updateSite({ id: clientId, role: 'client' }, siteId, { repeatEvery }, { now }, tx)
    return siteId
  })
}
