import { getDb } from '#app/domain/db/db.server.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import { auditLog } from '#db/schema.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { signedInUser } from '#tests/helpers/users.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { getChangeMinimumCm } from './change-settings.server.ts'
import { DEFAULT_CHANGE_MINIMUM_CM, formatChangeMinimum, minimumChangeM } from './change-settings.ts'

const asAdmin = async (form: Record<string, string>) => {
  const admin = await signedInUser('admin')
  return callRoute(dashboard.action, '/admin', { headers: { 'x-session-id': admin.token }, form })
}

describe('the minimum change', () => {
  test('is 5 cm, or twice the coarser ground resolution when that is larger', () => {
    expect(minimumChangeM(DEFAULT_CHANGE_MINIMUM_CM, [2, 1.5])).toBeCloseTo(0.05)
    expect(minimumChangeM(DEFAULT_CHANGE_MINIMUM_CM, [3, 8])).toBeCloseTo(0.16)
    expect(minimumChangeM(DEFAULT_CHANGE_MINIMUM_CM, [null, undefined])).toBeCloseTo(0.05)
    expect(minimumChangeM(0, [])).toBe(0)
    expect(formatChangeMinimum(0.125)).toBe('12,5\u00a0cm')
  })

  test('an admin changes the floor (audited); a bad value is refused per field; others cannot', async () => {
    expect(getChangeMinimumCm()).toBe(DEFAULT_CHANGE_MINIMUM_CM)
    const saved = await asAdmin({ intent: 'admin-save-change', changeMinimumCm: '7.5' })
    expect(saved.status).toBe(302)
    expect(getChangeMinimumCm()).toBe(7.5)
    const audit = getDb().select().from(auditLog).where(eq(auditLog.action, 'change-minimum.update')).all()
    expect(audit).toHaveLength(1)

    const bad = await asAdmin({ intent: 'admin-save-change', changeMinimumCm: '-3' })
    expect(bad.status).toBe(400)
    const { result } = (await bad.json()) as { result: { error: Record<string, string[]> } }
    expect(result.error.changeMinimumCm).toEqual(['Minimum change must be between 0 and 500 cm'])
    expect(getChangeMinimumCm()).toBe(7.5)

    const client = await signedInUser('client')
    const refused = await callRoute(dashboard.action, '/dashboard', {
      headers: { 'x-session-id': client.token },
      form: { intent: 'admin-save-change', changeMinimumCm: '50' },
    })
    expect(refused.status).toBe(400)
    expect(getChangeMinimumCm()).toBe(7.5)
  })
})
