/**
 * The Share page and panel (`/projects/{id}/share`): what they load and their two
 * form intents, on the same service as the /api calls. Plain posts: works without JavaScript.
 */
import { parseWithZod } from '@conform-to/zod'
import { json } from '@remix-run/node'
import { safeRedirect } from '#app/domain/auth/guards.server.ts'
import { datedFileName, repeatSurveyDate } from '#app/domain/files/survey-dates.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { createToastHeaders, redirectWithToast } from '#app/lib/http/toast.server.ts'
import { projects, type Project, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import {
  createShareLink,
  currentDeliverables,
  listShareLinks,
  revokeShareLink,
} from './share-links.server.ts'
import { SHARE_MESSAGES, ShareFormSchema } from './share-rules.ts'

type Actor = Pick<User, 'id' | 'role'>

const SHARE_INTENTS = { create: 'create-share-link', revoke: 'revoke-share-link' } as const

/**
 * What the Share panel needs for one project: the deliverables to choose from (named as they
 * download: a site's repeat with its survey date) and the links so far.
 */
export function sharePanelData(user: Actor, projectId: number, db: DbOrTx = getDb()) {
  const links = listShareLinks(user, projectId, { db })
  const project = db.select().from(projects).where(eq(projects.id, projectId)).get()
  const surveyDate = project ? repeatSurveyDate(project, db) : null
  const deliverables = currentDeliverables(projectId, db).map((f) => ({
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

/**
 * A Share form post: `create-share-link` answers with the new URL (the page shows it once),
 * `revoke-share-link` goes back to `returnTo` with a toast. Refusals come back as the
 * form's errors and an error toast.
 */
export async function handleShareForm(user: Actor, projectId: number, formData: FormData) {
  const intent = formData.get('intent')
  const back = safeRedirect(formData.get('returnTo'), `/projects/${projectId}/share`)
  if (intent === SHARE_INTENTS.revoke) {
    try {
      revokeShareLink(user, Number(formData.get('linkId')))
    } catch (error) {
      if (!isDomainError(error)) throw error
      return json(
        { created: null, result: null, error: error.message },
        { status: error.status, headers: await createToastHeaders({ type: 'error', title: error.message }) },
      )
    }
    return redirectWithToast(back, {
      title: SHARE_MESSAGES.revoked,
      description: 'The link no longer opens.',
    })
  }
  const submission = parseWithZod(formData, { schema: ShareFormSchema })
  if (submission.status !== 'success') {
    return json({ created: null, result: submission.reply(), error: null }, { status: 400 })
  }
  try {
    const created = createShareLink(user, projectId, submission.value)
    return json(
      {
        created: { url: created.url, expiresAt: created.expiresAt, allowDownload: created.allowDownload },
        result: submission.reply({ resetForm: true }),
        error: null,
      },
      {
        status: 201,
        headers: await createToastHeaders({
          title: SHARE_MESSAGES.created,
          description: 'Copy the link now: it is shown only once.',
        }),
      },
    )
  } catch (error) {
    if (!isDomainError(error)) throw error
    return json(
      {
        created: null,
        result: submission.reply({
          fieldErrors: error.fieldErrors,
          formErrors: error.fieldErrors ? [] : [error.message],
        }),
        error: error.message,
      },
      {
        status: error.status,
        headers: await createToastHeaders({
          type: 'error',
          title: 'Link not created',
          description: error.message,
        }),
      },
    )
  }
}
