import { json } from '@remix-run/node'
import { updatePricingByAdmin } from '#app/domain/admin/pricing-admin.server.ts'
import { PricingSettingsSchema } from '#app/domain/pricing/settings.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'admin',
  PUT: async ({ user, body }) => {
    const input = await body(PricingSettingsSchema)
    return json({ settings: updatePricingByAdmin(user.id, input) })
  },
})
