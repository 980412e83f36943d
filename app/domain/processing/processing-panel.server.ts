/** What the admin's processing panel and the settings' node list show. */
import { getDeliverableSettings } from '#app/domain/deliverables/settings.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { processingNodes } from '#db/schema.ts'
import { asc } from 'drizzle-orm'

import { jobViewsOfProject } from './jobs.server.ts'
import { toNodeView } from './nodes.server.ts'
import { projectPhotoCheck, projectPhotosWithoutAccessCheck } from './project-photos.server.ts'

/** What the admin's project dialog shows of processing: the jobs, the nodes and the photo check. */
export async function processingPanelData(projectId: number) {
  const nodes = getDb().select().from(processingNodes).orderBy(asc(processingNodes.label)).all()
  return {
    jobs: jobViewsOfProject(projectId).slice(0, 5),
    photoCount: projectPhotosWithoutAccessCheck(projectId).length,
    photoCheck: await projectPhotoCheck(projectId),
    deliverWhenDone: getDeliverableSettings().deliverWhenDone,
    nodes: nodes.filter((n) => n.enabled).map((n) => ({ id: n.id, label: n.label, online: n.online })),
    renderedAt: Date.now(),
  }
}

export function nodesForSettings() {
  return getDb().select().from(processingNodes).orderBy(asc(processingNodes.label)).all().map(toNodeView)
}
