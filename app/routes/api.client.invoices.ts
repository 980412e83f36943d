/** `GET /api/client/invoices` — the signed-in client's invoices (the API lists). */
import { json } from '@remix-run/node'
import { apiRoute } from '#app/domain/http/api-route.server.ts'
import { listClientInvoices } from '#app/domain/payments/invoices.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  GET: ({ user }) => json(listClientInvoices(user.id)),
})
