/**
 * `POST /api/payfast/notify` — PayFast's ITN (the API "Payment notification"). Public,
 * form-encoded, no session or origin check (PayFast is the caller); the raw body is read
 * once so the signature is checked over exactly what was posted. Cheap gates first: an
 * oversize body is 413 before it is read whole, and untrusted senders are rate-limited
 * (429) before anything is stored.
 */
import { enforceNotificationLimit, MAX_ITN_BODY_BYTES } from '#app/domain/payments/notify-limits.server.ts'
import { processPayfastNotification } from '#app/domain/payments/notify.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { declaresBodyOver, readTextWithin } from '#app/lib/http/body-limit.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'

export const { action, loader } = apiRoute({
  roles: 'public',
  POST: async ({ request, context }) => {
    const sourceIp = clientIpOf(context)
    if (declaresBodyOver(request, MAX_ITN_BODY_BYTES)) return new Response(null, { status: 413 })
    try {
      await enforceNotificationLimit(sourceIp)
    } catch (error) {
      if (!isDomainError(error, 429)) throw error
      return new Response(null, { status: 429, headers: error.headers })
    }
    let rawBody: string
    try {
      rawBody = await readTextWithin(request, MAX_ITN_BODY_BYTES)
    } catch (error) {
      if (isDomainError(error, 413)) return new Response(null, { status: 413 })
      throw error
    }
    const result = await processPayfastNotification({ rawBody, sourceIp })
    return new Response(null, { status: result.httpStatus })
  },
})
