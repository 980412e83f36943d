/** What the Share panel shows for a project: its deliverables to choose from and its links so far. */
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import type { Project, User } from '#db/schema.ts'

import { currentDeliverablesWithoutAccessCheck, listShareLinks } from './share-links.server.ts'

type Actor = Pick<User, 'id' | 'role'>

/** What the Share panel needs for one project: the deliverables to choose from and the links so far. */
export function sharePanelData(user: Actor, projectId: number, db: DbOrTx = getDb()) {
  const links = listShareLinks(user, projectId, { db })
  const deliverables = currentDeliverablesWithoutAccessCheck(projectId, db).map((f) => ({
    id: f.id,
    name: f.originalName,
  }))
  return { deliverables, links }
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
