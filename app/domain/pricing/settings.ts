/**
 * Pricing settings (decisions.md "Pricing"): the admin-editable keys of
 * system_settings and their defaults. Shared by the server and the live quote.
 */
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
}
