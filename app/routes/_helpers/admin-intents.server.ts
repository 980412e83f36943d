/**
 * The admin console's one-click changes posted to the dashboard action (a hidden
 * `intent` field): active toggles, the pricing form, the Deliverables settings and the
 * stockpile materials. Dialog forms have their own
 * routes (app/routes/admin.*). Each answers with a redirect and a toast, so it works
 * the same with JavaScript off.
 */
import { parseWithZod } from '@conform-to/zod'
import { json } from '@remix-run/node'
import { updatePricingByAdmin } from '#app/domain/admin/pricing-admin.server.ts'
import { setUserActive, updatePilot } from '#app/domain/admin/users.server.ts'
import { saveMaterials } from '#app/domain/annotations/materials.server.ts'
import { parseMaterials } from '#app/domain/annotations/materials.ts'
import { safeRedirect } from '#app/domain/auth/guards.server.ts'
import { DeliverableSettingsSchema } from '#app/domain/deliverables/schemas.ts'
import { saveDeliverableSettings } from '#app/domain/deliverables/settings.server.ts'
import { updateHub } from '#app/domain/hubs/hubs.server.ts'
import { PricingSettingsSchema } from '#app/domain/pricing/settings.ts'
import { updateDroneProfile } from '#app/domain/survey/drone-profiles.server.ts'
import { fullName } from '#app/domain/users/person-name.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { idOrNull } from '#app/lib/http/page-errors.server.ts'
import { jsonWithErrorToast, redirectWithToast } from '#app/lib/http/toast.server.ts'
import { FlagSchema } from '#app/lib/http/zod-input.ts'
import type { User } from '#db/schema.ts'

export const AdminIntents = intentSchema(
  'admin-user-active',
  'admin-pilot-active',
  'admin-hub-active',
  'admin-drone-active',
  'admin-save-pricing',
  'admin-save-deliverable-settings',
  'admin-save-materials',
)

export async function handleAdminIntent(admin: User, formData: FormData) {
  const intent = readIntent(formData, AdminIntents)
  const back = (fallback: string) => safeRedirect(formData.get('returnTo'), fallback)
  const active = FlagSchema.safeParse(formData.get('isActive'))
  try {
    switch (intent) {
      case 'admin-user-active': {
        const id = idOrNull(formData.get('id'))
        if (!id || !active.success)
          return redirectWithToast(back('/admin?tab=users'), {
            type: 'error',
            title: 'Error',
            description: 'Failed to update user',
          })
        const user = setUserActive(admin.id, id, active.data)
        return redirectWithToast(back('/admin?tab=users'), {
          title: 'User Updated',
          description: `${fullName(user)} is now ${user.isActive ? 'active' : 'inactive'}.`,
        })
      }
      case 'admin-pilot-active': {
        const id = idOrNull(formData.get('id'))
        if (!id || !active.success)
          return redirectWithToast(back('/admin?tab=pilots'), {
            type: 'error',
            title: 'Error',
            description: 'Failed to update pilot',
          })
        const pilot = await updatePilot(admin.id, id, { isActive: active.data })
        return redirectWithToast(back('/admin?tab=pilots'), {
          title: 'Pilot Updated',
          description: `${fullName(pilot)} is now ${pilot.isActive ? 'active' : 'inactive'}.`,
        })
      }
      case 'admin-hub-active': {
        const id = idOrNull(formData.get('id'))
        if (!id || !active.success)
          return redirectWithToast(back('/admin?tab=settings'), {
            type: 'error',
            title: 'Error',
            description: 'Failed to update hub',
          })
        const hub = updateHub(admin.id, id, { isActive: active.data })
        return redirectWithToast(back('/admin?tab=settings'), {
          title: 'Hub Updated',
          description: `${hub.name} is now ${hub.isActive ? 'active' : 'inactive'}.`,
        })
      }
      case 'admin-drone-active': {
        const id = idOrNull(formData.get('id'))
        if (!id || !active.success)
          return redirectWithToast(back('/admin?tab=settings'), {
            type: 'error',
            title: 'Error',
            description: 'Failed to update drone profile',
          })
        const drone = updateDroneProfile(admin.id, id, { isActive: active.data })
        return redirectWithToast(back('/admin?tab=settings'), {
          title: 'Drone Updated',
          description: `${drone.name} is now ${drone.isActive ? 'active' : 'inactive'}.`,
        })
      }
      case 'admin-save-pricing': {
        const submission = parseWithZod(formData, { schema: PricingSettingsSchema })
        if (submission.status !== 'success') {
          return jsonWithErrorToast({ intent, result: submission.reply() }, 400, {
            description: 'Failed to update pricing',
          })
        }
        updatePricingByAdmin(admin.id, submission.value)
        return redirectWithToast('/admin?tab=settings', {
          title: 'Pricing Updated',
          description: 'New quotes use these settings from now on.',
        })
      }
      case 'admin-save-deliverable-settings': {
        const submission = parseWithZod(formData, { schema: DeliverableSettingsSchema })
        if (submission.status !== 'success') {
          return jsonWithErrorToast({ intent, result: submission.reply() }, 400, {
            description: 'Failed to update the deliverable settings',
          })
        }
        saveDeliverableSettings(admin.id, submission.value)
        return redirectWithToast('/admin?tab=settings', {
          title: 'Deliverable Settings Updated',
          description: 'Viewing copies, change maps and photo processing use these settings from now on.',
        })
      }
      case 'admin-save-materials': {
        const parsed = parseMaterials(String(formData.get('materials') ?? ''))
        if ('error' in parsed) {
          return jsonWithErrorToast({ intent, materialsError: parsed.error }, 400, {
            description: 'Failed to update the materials',
          })
        }
        saveMaterials(admin.id, parsed.materials)
        return redirectWithToast('/admin?tab=settings', {
          title: 'Materials Updated',
          description: 'Stockpiles of a listed material without a density of their own weigh with these.',
        })
      }
    }
  } catch (error) {
    if (error instanceof DomainError) {
      return redirectWithToast(back('/admin'), { type: 'error', title: 'Error', description: error.message })
    }
    throw error
  }
  return json({ intent, error: 'Unknown action' }, { status: 400 })
}
