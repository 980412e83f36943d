/**
 * A project's survey plan after the quote: the admin and the assigned pilot adjust drone,
 * GSD, overlaps and angle; the plan is recomputed from the project's areas and stored.
 * The survey engine itself (plans, missions, exports) is in survey/.
 */
import { flightPlanAreas, withFlightPattern } from '#app/domain/flight-plan/flight-plan.ts'
import { NO_AREAS_YET, storedSurveyPlan } from '#app/domain/survey/project-plan.server.ts'
import {
  flightPatternText,
  readSurveyPlan,
  type AdjustSurveyInput,
  type StoredSurveyPlan,
  type SurveySettings,
} from '#app/domain/survey/project-plan.ts'
import { activeDrone } from '#app/domain/survey/survey.server.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { projects, type Project, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { PROJECT_NOT_FOUND, requireVisibleProject } from './access.server.ts'

export function canAdjustSurvey(user: Pick<User, 'id' | 'role'>, project: Pick<Project, 'pilotId'>) {
  return user.role === 'admin' || (user.role === 'pilot' && project.pilotId === user.id)
}

/** The admin's or the assigned pilot's adjustment: recomputed from the project's areas, stored, audited. */
export function adjustSurveyPlan(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  input: AdjustSurveyInput,
  db = getDb(),
): StoredSurveyPlan {
  const project = requireVisibleProject(user, projectId, db)
  if (!canAdjustSurvey(user, project)) throw new DomainError(404, PROJECT_NOT_FOUND)
  const areas = flightPlanAreas(project.flightPlan) ?? []
  if (!areas.length) throw new DomainError(409, NO_AREAS_YET)
  const drone = activeDrone(input.droneProfileId, db)
  const settings: SurveySettings = {
    droneProfileId: input.droneProfileId,
    drone: { ...drone, name: drone.name ?? 'Drone' },
    gsdCm: input.gsdCm,
    frontOverlap: input.frontOverlap,
    sideOverlap: input.sideOverlap,
    angleDeg: input.angleDeg ?? null,
  }
  const plan = storedSurveyPlan(areas, settings, db)
  db.transaction((tx) => {
    tx.update(projects)
      .set({
        surveyPlan: JSON.stringify(plan),
        // The stored flight plan describes the pattern in words: keep them the plan's.
        flightPlan: withFlightPattern(project.flightPlan, flightPatternText(settings)),
        updatedAt: new Date(),
      })
      .where(eq(projects.id, projectId))
      .run()
    recordAudit(
      {
        actorId: user.id,
        action: 'project.survey_plan',
        entityType: 'project',
        entityId: projectId,
        before: readSurveyPlan(project.surveyPlan)?.settings ?? null,
        after: settings,
      },
      tx,
    )
  })
  return plan
}
