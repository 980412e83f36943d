/** `GET /api/admin/refunds` — cancellations and their refunds, newest first. */
import { json } from '@remix-run/node'
import { listRefundsForAdmin } from '#app/domain/payments/refunds.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  GET: () => json({ refunds: listRefundsForAdmin() }),
})
