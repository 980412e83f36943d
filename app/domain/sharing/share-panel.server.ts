/** What the Share panel shows for a project: its deliverables to choose from and its links so far. */
import { datedFileName, repeatSurveyDates } from '#app/domain/files/survey-dates.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import type { Project, User } from '#db/schema.ts'

import { requireShareManager, shareStateOfProjects } from './share-links.server.ts'
import type { ShareLinkView } from './share-rules.ts'

type Actor = Pick<User, 'id' | 'role'>
type PanelProject = Pick<Project, 'id' | 'siteId' | 'completedAt' | 'createdAt'>

export interface SharePanelData {
  /** The deliverables to choose from, named as they download (a site's repeat with its survey date). */
  deliverables: Array<{ id: number; name: string }>
  links: ShareLinkView[]
  surveyDate: string | null
}

/** The panels of projects the caller may manage, by id: the same few queries for one project or fifty. */
function sharePanelsOf(rows: PanelProject[], db: DbOrTx): Record<number, SharePanelData> {
  const state = shareStateOfProjects(
    rows.map((p) => p.id),
    { db },
  )
  const dates = repeatSurveyDates(rows, db)
  return Object.fromEntries(
    rows.map((project) => {
      const surveyDate = dates.get(project.id) ?? null
      const { links, deliverables } = state.get(project.id)!
      const named = deliverables.map((f) => ({ id: f.id, name: datedFileName(f.originalName, surveyDate) }))
      return [project.id, { deliverables: named, links, surveyDate }]
    }),
  )
}

/** The Share panel of one project (404/403 for a project the user doesn't manage). */
export function sharePanelData(user: Actor, projectId: number, db: DbOrTx = getDb()): SharePanelData {
  const project = requireShareManager(user, projectId, db)
  return sharePanelsOf([project], db)[project.id]!
}

/** The Share panels of a client's completed projects, by project id. */
export function sharePanelsOfClient(
  client: Actor,
  projectRows: Array<PanelProject & Pick<Project, 'status' | 'clientId'>>,
  db: DbOrTx = getDb(),
): Record<number, SharePanelData> {
  const own = projectRows.filter((p) => p.status === 'completed' && p.clientId === client.id)
  return sharePanelsOf(own, db)
}
