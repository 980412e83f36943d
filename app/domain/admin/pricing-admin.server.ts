/** Saving the pricing configuration from the admin console, audited (before/after). */
import { getPricingSettings, savePricingSettings } from '#app/domain/pricing/settings.server.ts'
import type { PricingSettingsInput } from '#app/domain/pricing/settings.ts'
import { recordAudit } from '#app/lib/audit/audit.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'

/** New quotes use the new settings at once; stored quotes keep their stored figures. */
export function updatePricingByAdmin(actorId: number, values: PricingSettingsInput) {
  return getDb().transaction((tx) => {
    const before = getPricingSettings(tx)
    const after = savePricingSettings(values, actorId, tx)
    recordAudit({ actorId, action: 'pricing.update', entityType: 'system_settings', before, after }, tx)
    return after
  })
}
