/**
 * POST /document-copies?back=/path — the multipart form that uploads (or replaces) the
 * copy of a pilot or operator document: fields `pilotId` + `document`, or
 * `operatorDocumentId`, then `file`. Admins for every document, a pilot for their own.
 * Works without JavaScript: answers with a redirect back and a toast.
 */
import { redirect } from '@remix-run/node'
import { requireUser, safeRedirect } from '#app/domain/auth/guards.server.ts'
import { FILE_MESSAGES } from '#app/domain/files/rules.ts'
import { receiveDocumentCopy } from '#app/domain/operator/document-copies.server.ts'
import { DOCUMENT_COPY_MESSAGES } from '#app/domain/operator/document-copies.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { assertSameOrigin } from '#app/lib/http/origin.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

export const { loader, action } = resourceRoute({
  GET: () => redirect('/dashboard'),
  POST: async ({ request }) => {
    const user = await requireUser(request)
    assertSameOrigin(request)
    const back = safeRedirect(new URL(request.url).searchParams.get('back'))
    try {
      const { copy, replaced } = await receiveDocumentCopy(request, user)
      return redirectWithToast(back, {
        type: 'success',
        title: replaced ? DOCUMENT_COPY_MESSAGES.replaced : DOCUMENT_COPY_MESSAGES.uploaded,
        description: copy.originalName,
      })
    } catch (error) {
      if (!isDomainError(error)) throw error
      const title =
        typeof error.extra.title === 'string' ? error.extra.title : FILE_MESSAGES.uploadFailedTitle
      return redirectWithToast(back, { type: 'error', title, description: error.message })
    }
  },
})
