import { json, type ActionFunctionArgs } from '@remix-run/node'
import { updatePricingByAdmin } from '#app/domain/admin/pricing-admin.server.ts'
import { requireApiUser } from '#app/domain/auth/guards.server.ts'
import { methodNotAllowed, readJsonBody } from '#app/domain/http/api.server.ts'
import { PricingSettingsSchema } from '#app/domain/pricing/settings.ts'

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT'])
  const admin = await requireApiUser(request, 'admin')
  const input = await readJsonBody(request, PricingSettingsSchema)
  return json({ settings: updatePricingByAdmin(admin.id, input) })
}

/** Write-only: GET answers 405 (not Remix's 400 for a missing loader). */
export const loader = () => methodNotAllowed(['PUT'])
