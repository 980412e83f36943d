/** What the admin's processing panel and the settings' node list show. */
import { getDb } from '#app/lib/db/db.server.ts'
import { processingNodes } from '#db/schema.ts'
import { asc } from 'drizzle-orm'

import { jobViewsOfProject, projectPhotosWithoutAccessCheck } from './jobs.server.ts'
import { toNodeView } from './nodes.server.ts'

/** What the admin's project dialog shows of processing. */
export function processingPanelData(projectId: number) {
  const nodes = getDb().select().from(processingNodes).orderBy(asc(processingNodes.label)).all()
  return {
    jobs: jobViewsOfProject(projectId).slice(0, 5),
    photoCount: projectPhotosWithoutAccessCheck(projectId).length,
    nodes: nodes.filter((n) => n.enabled).map((n) => ({ id: n.id, label: n.label, online: n.online })),
  }
}

export function nodesForSettings() {
  return getDb().select().from(processingNodes).orderBy(asc(processingNodes.label)).all().map(toNodeView)
}
