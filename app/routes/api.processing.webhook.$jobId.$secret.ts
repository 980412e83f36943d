/**
 * POST /api/processing/webhook/{jobId}/{secret} — NodeODM's call when a task ends. Unsigned,
 * so it is only a prompt: with the job's secret the job is looked at now (its status still
 * comes from the node's /info); anything else changes nothing and answers 404.
 */
import { json } from '@remix-run/node'
import { webhookPrompt } from '#app/domain/processing/jobs.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { idOrNull } from '#app/lib/http/page-errors.server.ts'

export const { action, loader } = apiRoute({
  roles: 'public',
  // No `params`: a malformed job id is the same 404 as a wrong secret.
  POST: async ({ request, params }) => {
    const ok = webhookPrompt(idOrNull(params.jobId) ?? 0, String(params.secret ?? '').slice(0, 200))
    await request.body?.cancel().catch(() => {})
    return ok ? json({ ok: true }) : json({ error: 'Not found' }, { status: 404 })
  },
})
