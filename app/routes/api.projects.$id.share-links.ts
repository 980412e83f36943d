/**
 * GET /api/projects/{id}/share-links — the project's share links with their counts;
 * POST `{ fileIds?, allowDownload, expiresInDays?, includeNotes? }` → 201 `{ id, url,
 * expiresAt, allowDownload, includeNotes }` (the URL is shown this once). The project's client (once completed)
 * and admins; the assigned pilot 403; anyone else 404 (ADR 233).
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, parseId, readJsonBody, withApiErrors } from '#app/domain/http/api.server.ts'
import { createShareLink, listShareLinks } from '#app/domain/sharing/share-links.server.ts'
import { ShareLinkRequestSchema } from '#app/domain/sharing/share-rules.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    return json({ shareLinks: listShareLinks(user, parseId(params.id, 'project id')) })
  })
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST'])
  return withApiErrors(async () => {
    const user = await requireApiUser(request)
    const projectId = parseId(params.id, 'project id')
    const input = await readJsonBody(request, ShareLinkRequestSchema)
    const { id, url, expiresAt, allowDownload, includeNotes } = createShareLink(user, projectId, input)
    return json({ id, url, expiresAt, allowDownload, includeNotes }, { status: 201 })
  })
}
