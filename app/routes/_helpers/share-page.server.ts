/**
 * The Share page's two form intents (`/projects/{id}/share`), on the same service as the
 * /api calls. Plain posts: works without JavaScript. What the panel shows: sharing/share-panel.server.ts.
 */
import { parseWithZod } from '@conform-to/zod'
import { json } from '@remix-run/node'
import { safeRedirect } from '#app/domain/auth/guards.server.ts'
import { createShareLink, revokeShareLink } from '#app/domain/sharing/share-links.server.ts'
import { SHARE_MESSAGES, ShareFormSchema } from '#app/domain/sharing/share-rules.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { createToastHeaders, jsonWithErrorToast, redirectWithToast } from '#app/lib/http/toast.server.ts'
import type { User } from '#db/schema.ts'

type Actor = Pick<User, 'id' | 'role'>

const ShareIntents = intentSchema('create-share-link', 'revoke-share-link')

/**
 * A Share form post: `create-share-link` answers with the new URL (the page shows it once),
 * `revoke-share-link` goes back to `returnTo` with a toast. Refusals come back as the
 * form's errors and an error toast.
 */
export async function handleShareForm(user: Actor, projectId: number, formData: FormData) {
  const intent = readIntent(formData, ShareIntents)
  const back = safeRedirect(formData.get('returnTo'), `/projects/${projectId}/share`)
  if (intent === 'revoke-share-link') {
    try {
      revokeShareLink(user, Number(formData.get('linkId')))
    } catch (error) {
      if (!isDomainError(error)) throw error
      return jsonWithErrorToast({ created: null, result: null, error: error.message }, error.status, {
        title: error.message,
      })
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
        created: {
          url: created.url,
          expiresAt: created.expiresAt,
          allowDownload: created.allowDownload,
          gis: created.gis,
        },
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
    const result = submission.reply({
      fieldErrors: error.fieldErrors,
      formErrors: error.fieldErrors ? [] : [error.message],
    })
    return jsonWithErrorToast({ created: null, result, error: error.message }, error.status, {
      title: 'Link not created',
      description: error.message,
    })
  }
}
