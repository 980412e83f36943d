/** `GET /api/admin/refunds` — cancellations and their refunds, newest first (ADR 112). */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { listRefundsForAdmin } from '#app/domain/payments/refunds.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, 'admin')
  return json({ refunds: listRefundsForAdmin() })
}
