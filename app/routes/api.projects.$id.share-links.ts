/**
 * GET /api/projects/{id}/share-links — the project's share links with their counts;
 * POST `{ fileIds?, allowDownload, expiresInDays?, includeNotes? }` → 201 `{ id, url,
 * expiresAt, allowDownload, includeNotes, gis }` (the URL is shown this once; `gis`: the
 * link's WMTS address and an XYZ template per shared map, or null without maps). The project's client (once completed)
 * and admins; the assigned pilot 403; anyone else 404 (ADR 233).
 */
import { json } from '@remix-run/node'
import { createShareLink, listShareLinks } from '#app/domain/sharing/share-links.server.ts'
import { ShareLinkRequestSchema } from '#app/domain/sharing/share-rules.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  params: { id: 'project id' },
  GET: ({ user, ids }) => json({ shareLinks: listShareLinks(user, ids.id) }),
  POST: async ({ user, ids, body }) => {
    const input = await body(ShareLinkRequestSchema)
    const { id, url, expiresAt, allowDownload, includeNotes, gis } = createShareLink(user, ids.id, input)
    return json({ id, url, expiresAt, allowDownload, includeNotes, gis }, { status: 201 })
  },
})
