/** `GET /api/client/invoices/{id}` — one of the client's own invoices, with the terms. */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { apiError, methodNotAllowed, parseId } from '#app/domain/http/api.server.ts'
import { getClientInvoice } from '#app/domain/payments/invoices.server.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, 'client')
  const invoice = getClientInvoice(user.id, parseId(params.id, 'invoice id'))
  if (!invoice) return apiError(404, 'Invoice details not found')
  return json(invoice)
}

/** Read-only: any other method gets a JSON 405, not an unexpected-server-error page. */
export const action = () => methodNotAllowed(['GET'])
