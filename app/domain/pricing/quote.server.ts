/**
 * The authoritative quote: validate the areas, read the settings, active hubs and
 * airspace, and run the shared engine. Used by `POST /api/quote`, the planner's
 * 'Generate Quote', the accept-terms recompute and the admin.
 */
import { checkFlightArea, type AirspaceCheckResult } from '#app/domain/airspace/airspace.server.ts'
import { SurveyAreasSchema, type SurveyArea } from '#app/domain/geometry/areas.ts'
import { listActiveHubs } from '#app/domain/hubs/active-hubs.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { zodFieldErrors, type FieldErrors } from '#app/lib/http/api.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { projects } from '#db/schema.ts'

import {
  applyRepeatDiscount,
  computeInternalSplit,
  computeQuote,
  NO_HUBS_MESSAGE,
  type InternalSplit,
  type PricingTier,
  type Quote,
} from './quote.ts'
import { getPricingSettings } from './settings.server.ts'
import type { PricingSettings } from './settings.ts'

export type { Quote }

export interface QuoteResult {
  quote: Quote
  /** For storing on the project (admin finances); never sent to clients. */
  split: InternalSplit
  tier: PricingTier | null
  noHubs: boolean
  airspace: AirspaceCheckResult
  settings: PricingSettings
  /** The validated areas the quote was computed from. */
  areas: SurveyArea[]
}

/** Bad areas: 400 with request-shaped field names (`areas.0.coordinates`). */
function invalidAreasError(fieldErrors: FieldErrors) {
  return new DomainError(400, Object.values(fieldErrors)[0]?.[0] ?? 'Invalid survey areas', { fieldErrors })
}

/** Validates raw areas (the API shape); throws a 400 DomainError with field errors. */
function parseSurveyAreas(input: unknown): SurveyArea[] {
  const result = SurveyAreasSchema.safeParse(input)
  if (!result.success) {
    const errors = zodFieldErrors(result.error)
    // Paths are relative to the list; name them as the request body does.
    throw invalidAreasError(
      Object.fromEntries(Object.entries(errors).map(([k, v]) => [k === 'form' ? 'areas' : `areas.${k}`, v])),
    )
  }
  return result.data
}

/** `repeat`: the areas are a repeat project's, so the repeat discount setting applies. */
export interface QuoteOptions {
  repeat?: boolean
}

/** The quote for the given areas (validated here), with the internal split. */
export function quoteForAreas(input: unknown, db: DbOrTx = getDb(), options: QuoteOptions = {}): QuoteResult {
  return quoteForValidatedAreas(parseSurveyAreas(input), db, options)
}

/** As `quoteForAreas`, for areas that already passed `SurveyAreasSchema` (e.g. via `readJsonBody`). */
export function quoteForValidatedAreas(
  areas: SurveyArea[],
  db: DbOrTx = getDb(),
  { repeat = false }: QuoteOptions = {},
): QuoteResult {
  const settings = getPricingSettings(db)
  const hubs = listActiveHubs(db)
  const airspace = checkFlightArea(areas, db)
  const undiscounted = computeQuote({
    areas,
    hubs,
    settings,
    aviation: { aviationFee: airspace.aviationFee, zoneName: airspace.zoneName, zoneColor: airspace.color },
  })
  const discount = repeat
    ? applyRepeatDiscount(undiscounted, settings.repeatDiscountPercent, settings.vatRate)
    : null
  const figures = discount ?? undiscounted
  const warnings = [...airspace.warnings]
  if (figures.noHubs) warnings.push(NO_HUBS_MESSAGE)
  const quote: Quote = {
    areaSqm: figures.areaSqm,
    areaHectares: figures.areaHectares,
    nearestHub: figures.nearestHub,
    distanceFromHub: figures.distanceFromHub,
    basePrice: figures.basePrice,
    adjustedPrice: figures.adjustedPrice,
    travelFee: figures.travelFee,
    aviationFee: figures.aviationFee,
    airspaceZone: figures.airspaceZone,
    airspaceZoneColor: figures.airspaceZoneColor,
    subtotal: figures.subtotal,
    vatAmount: figures.vatAmount,
    totalInCents: figures.totalInCents,
    warnings,
  }
  if (discount) {
    quote.repeatDiscountPercent = discount.repeatDiscountPercent
    quote.repeatDiscount = discount.repeatDiscount
  }
  return {
    quote,
    split: computeInternalSplit(figures),
    tier: figures.tier,
    noHubs: figures.noHubs,
    airspace,
    settings,
    areas,
  }
}

/**
 * The `projects` columns a quote fills in (flight plan completion, accept-terms
 * recompute). `quoteAmount` is the total in cents.
 */
export function projectPricingColumns(
  { quote, split }: Pick<QuoteResult, 'quote' | 'split'>,
  quotedAt = new Date(),
) {
  return {
    areaSqm: quote.areaSqm,
    distanceFromHub: quote.distanceFromHub,
    nearestHub: quote.nearestHub?.name ?? null,
    nearestHubId: quote.nearestHub?.id ?? null,
    basePrice: quote.basePrice,
    adjustedPrice: quote.adjustedPrice,
    airspaceZone: quote.airspaceZone,
    airspaceZoneColor: quote.airspaceZoneColor,
    aviationFee: quote.aviationFee,
    travelFee: quote.travelFee,
    subtotal: quote.subtotal,
    vatAmount: quote.vatAmount,
    quoteAmount: quote.totalInCents,
    quotedAt,
    repeatDiscountPercent: quote.repeatDiscountPercent ?? 0,
    repeatDiscount: quote.repeatDiscount ?? 0,
    baseCost: split.baseCost,
    profitMargin: split.profitMargin,
    platformShare: split.platformShare,
    operatorShare: split.operatorShare,
    operatorPayout: split.operatorPayout,
  } satisfies Partial<typeof projects.$inferInsert>
}
