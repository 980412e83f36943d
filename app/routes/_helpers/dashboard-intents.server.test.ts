import { dashboardIntents } from '#app/routes/_helpers/dashboard-intents.server.ts'
import type { User } from '#db/schema.ts'
import { describe, expect, it } from 'vitest'

const pilot = { id: 7, role: 'pilot' } as User
const client = { id: 8, role: 'client' } as User
const form = (intent: string) => {
  const data = new FormData()
  data.set('intent', intent)
  return data
}

describe('dashboardIntents', () => {
  const forms = dashboardIntents('pilot', 'Only pilots can save progress', {
    'save-progress': async (user, formData) => Response.json({ by: user.id, intent: formData.get('intent') }),
  })

  it("hands the role's own intent to its handler", async () => {
    const response = await forms.answer(pilot, form('save-progress'))
    expect(await response?.json()).toEqual({ by: 7, intent: 'save-progress' })
  })

  it('refuses another role with 403 and the refusal', async () => {
    const response = await forms.answer(client, form('save-progress'))
    expect(response?.status).toBe(403)
    expect(await response?.json()).toEqual({
      intent: 'save-progress',
      error: 'Only pilots can save progress',
    })
  })

  it("leaves another module's intent alone", () => {
    expect(forms.answer(pilot, form('create-project'))).toBeNull()
    expect(forms.answer(pilot, new FormData())).toBeNull()
  })
})
