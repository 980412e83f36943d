/**
 * POST /api/processing/webhook/{jobId}/{secret} — NodeODM's call when a task ends. Unsigned,
 * so it is only a prompt: with the job's secret the job is looked at now (its status still
 * comes from the node's /info); anything else changes nothing and answers 404.
 */
import { json } from '@remix-run/node'
import { webhookPrompt } from '#app/domain/processing/jobs.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { readBytesWithin } from '#app/lib/http/body-limit.server.ts'
import { idOrNull } from '#app/lib/http/page-errors.server.ts'
import { BODY_LIMITS } from '#app/lib/http/request-limits.server.ts'

export const { action, loader } = apiRoute({
  roles: 'public',
  // No `params`: a malformed job id is the same 404 as a wrong secret.
  POST: async ({ request, params }) => {
    // Read to the end (its content is not needed): a body cancelled unread closed the
    // connection, so the node got no answer at all and retried.
    await readBytesWithin(request, BODY_LIMITS.default)
    const ok = webhookPrompt(idOrNull(params.jobId) ?? 0, String(params.secret ?? '').slice(0, 200))
    return ok ? json({ ok: true }) : json({ error: 'Not found' }, { status: 404 })
  },
})
