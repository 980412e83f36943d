/**
 * Pricing settings: the admin-editable keys of
 * system_settings and their defaults. Shared by the server and the live quote.
 */
import { z } from 'zod'

export interface PricingSettings {
  /** Rand per m², local tier. */
  tier1Price: number
  /** Rand per m², regional tier. */
  tier2Price: number
  /** Rand per m², national tier. */
  tier3Price: number
  /** m² included in a tier's minimum price. */
  areaThreshold: number
  /** km; the local tier's limit and where travel charges start. */
  localTravelThreshold: number
  /** Rand per km beyond the local threshold. */
  travelFeeRate: number
  /** Legacy cents per m², kept for old quotes, not used. */
  sqmBasePrice: number
  /** Fixed travel fee for the local tier, rand. */
  localTravelFee: number
  /** VAT rate in percent. */
  vatRate: number
  /** Percent off the survey price of a repeat ("Fly this again") project, ex VAT. */
  repeatDiscountPercent: number
  /** Days before a scheduled repeat survey's preferred date that its quote is made and e-mailed. */
  repeatReminderDays: number
}

export const DEFAULT_PRICING_SETTINGS: PricingSettings = {
  tier1Price: 0.06,
  tier2Price: 0.09,
  tier3Price: 0.18,
  areaThreshold: 25000,
  localTravelThreshold: 30,
  travelFeeRate: 6.8,
  sqmBasePrice: 50,
  localTravelFee: 200,
  vatRate: 15,
  repeatDiscountPercent: 0,
  repeatReminderDays: 7,
}

/** system_settings.settingKey for each field. */
export const PRICING_SETTING_KEYS: Record<keyof PricingSettings, string> = {
  tier1Price: 'tier1_price',
  tier2Price: 'tier2_price',
  tier3Price: 'tier3_price',
  areaThreshold: 'area_threshold',
  localTravelThreshold: 'local_travel_threshold',
  travelFeeRate: 'travel_fee_rate',
  sqmBasePrice: 'sqm_base_price',
  localTravelFee: 'local_travel_fee',
  vatRate: 'vat_rate',
  repeatDiscountPercent: 'repeat_discount_percent',
  repeatReminderDays: 'repeat_reminder_days',
}

export const PRICING_SETTING_DESCRIPTIONS: Record<keyof PricingSettings, string> = {
  tier1Price: 'Area rate, rand per m², local tier (within the local travel threshold)',
  tier2Price: 'Area rate, rand per m², regional tier (beyond the local threshold and under 100 km)',
  tier3Price: 'Area rate, rand per m², national tier (100 km or more)',
  areaThreshold: 'm² included in the tier minimum price',
  localTravelThreshold: 'km from the nearest hub within which the local tier applies',
  travelFeeRate: 'Rand per km beyond the local travel threshold',
  sqmBasePrice: 'Legacy base price per m² in cents (kept for older quotes)',
  localTravelFee: 'Fixed travel fee for the local tier, rand',
  vatRate: 'VAT rate, percent',
  repeatDiscountPercent: 'Repeat discount, percent off the survey price of a repeat survey',
  repeatReminderDays: 'Days before a scheduled survey that its quote is e-mailed to the client',
}

/**
 * The admin pricing form and `PUT /api/admin/pricing-settings`.
 * One schema for the browser and the server. Numbers may arrive as form strings.
 * `localTravelFee`, `vatRate`, `repeatDiscountPercent` and `repeatReminderDays` are optional: left out, they keep their stored value.
 */
function amount(label: string, min: number, max: number, unit: string) {
  const message = `${label} must be between ${min} and ${max}${unit}`
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value),
    z
      .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number` })
      .finite(`${label} must be a number`)
      .min(min, message)
      .max(max, message),
  )
}

export const PricingSettingsSchema = z.object({
  sqmBasePrice: amount('Legacy base price', 0, 100000, ' cents per m²'),
  tier1Price: amount('Tier 1 price', 0, 100, ' rand per m²'),
  tier2Price: amount('Tier 2 price', 0, 100, ' rand per m²'),
  tier3Price: amount('Tier 3 price', 0, 100, ' rand per m²'),
  areaThreshold: amount('Area threshold', 0, 10000000, ' m²'),
  localTravelThreshold: amount('Local travel threshold', 0, 100, ' km'),
  travelFeeRate: amount('Travel fee rate', 0, 1000, ' rand per km'),
  localTravelFee: amount('Local travel fee', 0, 100000, ' rand').optional(),
  vatRate: amount('VAT rate', 0, 100, ' %').optional(),
  repeatDiscountPercent: amount('Repeat discount', 0, 100, ' %').optional(),
  repeatReminderDays: amount('Repeat reminder days', 0, 60, ' days')
    .refine(Number.isInteger, 'Repeat reminder days must be a whole number')
    .optional(),
})
export type PricingSettingsInput = z.infer<typeof PricingSettingsSchema>
