/**
 * `POST /api/payfast/notify` — PayFast's ITN (api.md "Payment notification"). Public,
 * form-encoded, no session or origin check (PayFast is the caller); the raw body is read
 * once so the signature is checked over exactly what was posted.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { processPayfastNotification } from '#app/domain/payments/notify.server.ts'

export async function loader() {
  return methodNotAllowed(['POST'])
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const rawBody = await request.text()
  const result = await processPayfastNotification({ rawBody, sourceIp: clientIpOf(context) })
  return new Response(null, { status: result.httpStatus })
}
