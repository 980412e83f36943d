/**
 * POST /api/processing/webhook/{jobId}/{secret} — NodeODM's call when a task ends. Unsigned,
 * so it is only a prompt: with the job's secret the job is looked at now (its status still
 * comes from the node's /info); anything else changes nothing and answers 404.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { webhookPrompt } from '#app/domain/processing/jobs.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const ok = webhookPrompt(Number(params.jobId), String(params.secret ?? '').slice(0, 200))
  await request.body?.cancel().catch(() => {})
  return ok ? json({ ok: true }) : json({ error: 'Not found' }, { status: 404 })
}

export const loader = () => methodNotAllowed(['POST'])
