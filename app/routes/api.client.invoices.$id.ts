/** `GET /api/client/invoices/{id}` — one of the client's own invoices, with the terms. */
import { json } from '@remix-run/node'
import { getClientInvoice } from '#app/domain/payments/invoices.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { apiError } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  params: { id: 'invoice id' },
  GET: ({ user, ids }) => {
    const invoice = getClientInvoice(user.id, ids.id)
    if (!invoice) return apiError(404, 'Invoice details not found')
    return json(invoice)
  },
})
