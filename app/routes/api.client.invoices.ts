/** `GET /api/client/invoices` — the signed-in client's invoices (the API lists). */
import { json } from '@remix-run/node'
import { listClientInvoices } from '#app/domain/payments/invoices.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  GET: ({ user }) => json(listClientInvoices(user.id)),
})
