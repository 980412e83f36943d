import { getDb } from '#app/lib/db/db.server.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import { auditLog } from '#db/schema.ts'
import { signedInUser } from '#tests/factories.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { DEFAULT_CHANGE_MINIMUM_CM, formatChangeMinimum, minimumChangeM } from './change-settings.ts'
import { DEFAULT_RASTER_MAX_GIGAPIXELS } from './schemas.ts'
import { getDeliverableSettings } from './settings.server.ts'

const asAdmin = async (form: Record<string, string>) => {
  const admin = await signedInUser('admin')
  return callRoute(dashboard.action, '/admin', { headers: { 'x-session-id': admin.token }, form })
}
const deliverablesForm = (values: Record<string, string>) => ({
  intent: 'admin-save-deliverable-settings',
  rasterMaxGigapixels: '5',
  changeMinimumCm: '5',
  ...values,
})

describe('the minimum change', () => {
  test('is 5 cm, or twice the coarser ground resolution when that is larger', () => {
    expect(minimumChangeM(DEFAULT_CHANGE_MINIMUM_CM, [2, 1.5])).toBeCloseTo(0.05)
    expect(minimumChangeM(DEFAULT_CHANGE_MINIMUM_CM, [3, 8])).toBeCloseTo(0.16)
    expect(minimumChangeM(DEFAULT_CHANGE_MINIMUM_CM, [null, undefined])).toBeCloseTo(0.05)
    expect(minimumChangeM(0, [])).toBe(0)
    expect(formatChangeMinimum(0.125)).toBe('12,5\u00a0cm')
  })
})

describe('the one Deliverables form', () => {
  test('defaults: 5 gigapixels, 5 cm, processing started by hand', () => {
    expect(getDeliverableSettings()).toEqual({
      rasterMaxGigapixels: DEFAULT_RASTER_MAX_GIGAPIXELS,
      changeMinimumCm: DEFAULT_CHANGE_MINIMUM_CM,
      autoProcessPhotos: false,
      deliverWhenDone: false,
    })
  })

  test('an admin saves the minimum and the automatic start together (audited); a bad value is refused per field; others cannot', async () => {
    const saved = await asAdmin(
      deliverablesForm({ changeMinimumCm: '7.5', autoProcessPhotos: 'on', deliverWhenDone: 'on' }),
    )
    expect(saved.status).toBe(302)
    expect(getDeliverableSettings()).toMatchObject({
      changeMinimumCm: 7.5,
      autoProcessPhotos: true,
      deliverWhenDone: true,
    })
    const audit = getDb()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'deliverable-settings.update'))
      .all()
    expect(audit).toHaveLength(1)

    // An unticked checkbox is not sent: the automatic start goes off.
    expect((await asAdmin(deliverablesForm({ changeMinimumCm: '7.5' }))).status).toBe(302)
    expect(getDeliverableSettings()).toMatchObject({ autoProcessPhotos: false, deliverWhenDone: false })

    const bad = await asAdmin(deliverablesForm({ changeMinimumCm: '-3', autoProcessPhotos: 'on' }))
    expect(bad.status).toBe(400)
    const { result } = (await bad.json()) as { result: { error: Record<string, string[]> } }
    expect(result.error.changeMinimumCm).toEqual(['Minimum change must be between 0 and 500 cm'])
    expect(getDeliverableSettings()).toMatchObject({ changeMinimumCm: 7.5, autoProcessPhotos: false })

    const client = await signedInUser('client')
    const refused = await callRoute(dashboard.action, '/dashboard', {
      headers: { 'x-session-id': client.token },
      form: deliverablesForm({ changeMinimumCm: '50', autoProcessPhotos: 'on' }),
    })
    expect(refused.status).toBe(400)
    expect(getDeliverableSettings()).toMatchObject({ changeMinimumCm: 7.5, autoProcessPhotos: false })
  })
})
