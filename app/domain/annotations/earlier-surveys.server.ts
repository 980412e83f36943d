/**
 * The earlier surveys a volume report can compare with: the other surveys of the project's
 * site flown before it that the user may see, each with its newest readable elevation model,
 * newest survey first (the Map view's "Compare with" choice).
 */
import { surveyDateOf } from '#app/domain/files/survey-dates.server.ts'
import { canSeeProject } from '#app/domain/projects/access.server.ts'
import { listSiteProjects } from '#app/domain/sites/site-access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import type { Project, User } from '#db/schema.ts'

import { latestElevationModel } from './annotation-measure.server.ts'

export type EarlierSurvey = { fileId: number; projectName: string; surveyedAt: Date }

export function earlierSurveyModels(
  user: Pick<User, 'id' | 'role'>,
  project: Pick<Project, 'id' | 'siteId' | 'completedAt' | 'createdAt'>,
  db: DbOrTx = getDb(),
): EarlierSurvey[] {
  if (project.siteId === null) return []
  const flown = surveyDateOf(project).getTime()
  return listSiteProjects(project.siteId, db)
    .filter((p) => p.id !== project.id && surveyDateOf(p).getTime() < flown && canSeeProject(user, p))
    .flatMap((p) => {
      const model = latestElevationModel(p.id, db)
      return model ? [{ fileId: model.id, projectName: p.name, surveyedAt: surveyDateOf(p) }] : []
    })
    .reverse()
}
