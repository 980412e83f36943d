/** What the Share panel shows for a project: its deliverables to choose from and its links so far. */
import { datedFileName, repeatSurveyDate } from '#app/domain/files/survey-dates.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { projects, type Project, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { currentDeliverablesWithoutAccessCheck, listShareLinks } from './share-links.server.ts'

type Actor = Pick<User, 'id' | 'role'>

/**
 * What the Share panel needs for one project: the deliverables to choose from (named as they
 * download: a site's repeat with its survey date) and the links so far.
 */
export function sharePanelData(user: Actor, projectId: number, db: DbOrTx = getDb()) {
  const links = listShareLinks(user, projectId, { db })
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  const surveyDate = project ? repeatSurveyDate(project, db) : null
  const deliverables = currentDeliverablesWithoutAccessCheck(projectId, db).map((f) => ({
    id: f.id,
    name: datedFileName(f.originalName, surveyDate),
  }))
  return { deliverables, links, surveyDate }
}
export type SharePanelData = ReturnType<typeof sharePanelData>

/** The Share panels of a client's completed projects, by project id. */
export function sharePanelsOfClient(
  client: Actor,
  projectRows: Pick<Project, 'id' | 'status' | 'clientId'>[],
  db: DbOrTx = getDb(),
): Record<number, SharePanelData> {
  const out: Record<number, SharePanelData> = {}
  for (const project of projectRows) {
    if (project.status === 'completed' && project.clientId === client.id) {
      out[project.id] = sharePanelData(client, project.id, db)
    }
  }
  return out
}
