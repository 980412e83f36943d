import { getDb } from '#app/lib/db/db.server.ts'
import { systemSettings } from '#db/schema.ts'
import { createTestUser } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { getPricingSettings, savePricingSettings } from './settings.server.ts'
import { DEFAULT_PRICING_SETTINGS, PricingSettingsSchema } from './settings.ts'

describe('pricing settings', () => {
  test('defaults when nothing is stored, and for unreadable values', () => {
    expect(getPricingSettings()).toEqual(DEFAULT_PRICING_SETTINGS)
    getDb().insert(systemSettings).values({ settingKey: 'tier1_price', settingValue: 'cheap' }).run()
    expect(getPricingSettings().tier1Price).toBe(0.06)
    getDb().delete(systemSettings).run()
  })

  test('save upserts the given keys, records who, keeps the rest', async () => {
    const admin = await createTestUser({ role: 'admin' })
    savePricingSettings({ tier1Price: 0.07, vatRate: 15 }, admin.id)
    const saved = savePricingSettings({ tier1Price: 0.08, travelFeeRate: 7.5 }, admin.id)
    expect(saved).toEqual({ ...DEFAULT_PRICING_SETTINGS, tier1Price: 0.08, travelFeeRate: 7.5 })
    const row = getDb()
      .select()
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, 'tier1_price'))
      .get()
    expect(row).toMatchObject({ settingValue: '0.08', updatedBy: admin.id })
    expect(getDb().select().from(systemSettings).all()).toHaveLength(3)
  })
})

describe('PricingSettingsSchema', () => {
  // The form as the admin's browser posts it: the fields it needs, as text.
  const { localTravelFee: _optionalFee, vatRate: _optionalVat, ...required } = DEFAULT_PRICING_SETTINGS
  const form = {
    ...Object.fromEntries(Object.entries(required).map(([key, value]) => [key, String(value)])),
    travelFeeRate: '6.80',
  }

  test('accepts the form as strings or numbers', () => {
    expect(PricingSettingsSchema.parse(form)).toEqual(required)
    expect(PricingSettingsSchema.safeParse({ ...DEFAULT_PRICING_SETTINGS }).success).toBe(true)
  })

  test('field messages for negative, missing and non-numeric values', () => {
    const result = PricingSettingsSchema.safeParse({
      ...form,
      tier1Price: '-1',
      tier2Price: 'abc',
      areaThreshold: undefined,
    })
    expect(result.success).toBe(false)
    const errors = result.error!.flatten().fieldErrors
    expect(errors.tier1Price).toEqual(['Tier 1 price must be between 0 and 100 rand per m²'])
    expect(errors.tier2Price).toEqual(['Tier 2 price must be a number'])
    expect(errors.areaThreshold).toEqual(['Area threshold is required'])
  })

  test('the repeat discount: optional, 0 to 100 %, saved and read back', () => {
    expect(
      PricingSettingsSchema.parse({ ...form, repeatDiscountPercent: '12.5' }).repeatDiscountPercent,
    ).toBe(12.5)
    const tooMuch = PricingSettingsSchema.safeParse({ ...form, repeatDiscountPercent: '101' })
    expect(tooMuch.error?.flatten().fieldErrors.repeatDiscountPercent).toEqual([
      'Repeat discount must be between 0 and 100 %',
    ])
    expect(getPricingSettings().repeatDiscountPercent).toBe(0)
    savePricingSettings({ repeatDiscountPercent: 12.5 }, null)
    expect(getPricingSettings().repeatDiscountPercent).toBe(12.5)
    getDb().delete(systemSettings).run()
  })
})
