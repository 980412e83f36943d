/** `GET /api/client/invoices` — the signed-in client's invoices (the API lists). */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { listClientInvoices } from '#app/domain/payments/invoices.server.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, 'client')
  return json(listClientInvoices(user.id))
}

/** Read-only: any other method gets a JSON 405, not an unexpected-server-error page. */
export const action = () => methodNotAllowed(['GET'])
