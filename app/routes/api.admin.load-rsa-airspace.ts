import { json, type ActionFunctionArgs } from '@remix-run/node'
import { loadRsaAirspaceByAdmin } from '#app/domain/admin/airspace-admin.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST'])
  const admin = await requireApiUser(request, 'admin')
  const { inserted } = await loadRsaAirspaceByAdmin(admin.id)
  return json({ success: true, inserted })
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['POST'])
