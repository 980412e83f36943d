/**
 * The pricing engine (ADR 010): one pure module, used by the live quote
 * in the browser and by the authoritative quote on the server. No I/O: settings, hubs
 * and the airspace fee are passed in. Money is integer cents; every money line is
 * rounded to whole cents, half away from zero, before it is added.
 */
import { area as turfArea, centroid as turfCentroid } from '@turf/turf'
import { areasToFeatureCollection, openRing, type SurveyArea } from '#app/domain/geometry/areas.ts'

import type { PricingSettings } from './settings.ts'

/** Great-circle radius used for hub distances. */
const EARTH_RADIUS_KM = 6371
/** The regional tier ends (and the national tier starts) at this distance. */
const REGIONAL_LIMIT_KM = 100
/** Internal split constants: base cost R1172.04, 30 % platform. */
export const BASE_COST_CENTS = 117204
const PLATFORM_SHARE_PERCENT = 30
export const NO_HUBS_MESSAGE = 'No hubs configured'
/** The error shown where hubs are needed (the planner) and none is active. */
export const NO_FLIGHT_HUBS_MESSAGE = 'No flight hubs available'

export type PricingTier = 'local' | 'regional' | 'national'

export interface PricingHub {
  id: number
  name: string
  latitude: number
  longitude: number
  /** Inactive hubs are ignored; missing means active. */
  isActive?: boolean
}

/** The airspace part of a quote, taken from the airspace check. */
export interface AviationInput {
  /** Cents. */
  aviationFee: number
  zoneName: string | null
  zoneColor: string | null
}

/** The aviation part of a quote from an airspace check result (the /api/airspace/check-flight-area body). */
export function aviationFromCheck(check: {
  aviationFee?: number
  aviationFeeRands?: number
  zoneName: string | null
  color: string | null
}): AviationInput {
  return {
    aviationFee: check.aviationFee ?? randToCents(check.aviationFeeRands ?? 0),
    zoneName: check.zoneName,
    zoneColor: check.color,
  }
}

export interface QuoteInput {
  areas: SurveyArea[]
  hubs: PricingHub[]
  settings: PricingSettings
  aviation?: AviationInput
}

/** The API quote object, less `warnings` (which the server adds). */
export interface QuoteFigures {
  areaSqm: number
  areaHectares: number
  nearestHub: { id: number; name: string } | null
  /** km, great-circle, unrounded. */
  distanceFromHub: number
  tier: PricingTier | null
  /** Cents, every one. */
  basePrice: number
  adjustedPrice: number
  travelFee: number
  aviationFee: number
  airspaceZone: string | null
  airspaceZoneColor: string | null
  subtotal: number
  vatAmount: number
  totalInCents: number
  /** True when no active hub exists: the quote is zero and the planner says 'No hubs configured'. */
  noHubs: boolean
}

/** The repeat discount of a repeat project's quote: percent, and cents off the survey price, ex VAT. */
export interface RepeatDiscount {
  repeatDiscountPercent: number
  repeatDiscount: number
}

/**
 * The quote object of `POST /api/quote` (all money in cents): the figures plus the server's
 * warnings. A repeat project's quote also carries its repeat discount (never /api/quote's).
 */
export type Quote = Omit<QuoteFigures, 'tier' | 'noHubs'> & { warnings: string[] } & Partial<RepeatDiscount>

/** How a project's money is split internally (admin finances), all cents. */
export interface InternalSplit {
  baseCost: number
  profitMargin: number
  platformShare: number
  operatorShare: number
  operatorPayout: number
}

/**
 * Rand (or fractional cents) → whole cents, half away from zero. `toPrecision(12)`
 * first removes binary noise such as 74072.49999999999 so that a true half rounds up.
 */
export function roundHalfAwayFromZero(value: number): number {
  if (!Number.isFinite(value)) return 0
  const clean = Number(value.toPrecision(12))
  const rounded = Math.round(Math.abs(clean))
  return clean < 0 ? -rounded : rounded
}

/** Rand → cents, rounded as above. */
export function randToCents(rand: number): number {
  return roundHalfAwayFromZero(rand * 100)
}

const toRadians = (deg: number) => (deg * Math.PI) / 180

/** Haversine great-circle distance in km on a sphere of radius 6371 km. */
export function greatCircleKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
) {
  const dLat = toRadians(b.latitude - a.latitude)
  const dLng = toRadians(b.longitude - a.longitude)
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Sum of the geodesic areas (turf.area) of all areas, m². */
export function totalAreaSqm(areas: SurveyArea[]): number {
  if (!areas.length) return 0
  return areasToFeatureCollection(areas).features.reduce((sum, polygon) => sum + turfArea(polygon), 0)
}

/** turf.centroid of all areas together: the mean of every vertex (closing points excluded). */
export function referencePoint(areas: SurveyArea[]): { latitude: number; longitude: number } | null {
  if (!areas.length) return null
  const [longitude, latitude] = turfCentroid(areasToFeatureCollection(areas)).geometry.coordinates
  return { latitude, longitude }
}

function nearestActiveHub(point: { latitude: number; longitude: number }, hubs: PricingHub[]) {
  let best: { hub: PricingHub; distanceKm: number } | null = null
  for (const hub of hubs) {
    if (hub.isActive === false) continue
    const distanceKm = greatCircleKm(point, hub)
    if (!best || distanceKm < best.distanceKm) best = { hub, distanceKm }
  }
  return best
}

/** ≤ local threshold local; above it and under 100 km regional; 100 km or more national. */
export function tierForDistance(distanceKm: number, settings: PricingSettings): PricingTier {
  if (distanceKm <= settings.localTravelThreshold) return 'local'
  if (distanceKm < REGIONAL_LIMIT_KM) return 'regional'
  return 'national'
}

function tierRate(tier: PricingTier, settings: PricingSettings): number {
  return tier === 'local'
    ? settings.tier1Price
    : tier === 'regional'
      ? settings.tier2Price
      : settings.tier3Price
}

function zeroQuote(areaSqm: number, noHubs: boolean): QuoteFigures {
  return {
    areaSqm,
    areaHectares: areaSqm / 10000,
    nearestHub: null,
    distanceFromHub: 0,
    tier: null,
    basePrice: 0,
    adjustedPrice: 0,
    travelFee: 0,
    aviationFee: 0,
    airspaceZone: null,
    airspaceZoneColor: null,
    subtotal: 0,
    vatAmount: 0,
    totalInCents: 0,
    noHubs,
  }
}

/**
 * The quote for a set of areas. Areas with fewer than 3
 * distinct points (a drawing in progress) are left out rather than throwing.
 */
export function computeQuote({ areas: given, hubs, settings, aviation }: QuoteInput): QuoteFigures {
  const areas = given.filter((a) => Array.isArray(a.coordinates) && openRing(a.coordinates).length >= 3)
  const areaSqm = totalAreaSqm(areas)
  const reference = referencePoint(areas)
  const nearest = reference ? nearestActiveHub(reference, hubs) : null
  return priceQuote({ areaSqm, nearest, noHubs: !hubs.some((h) => h.isActive !== false), settings, aviation })
}

/**
 * The arithmetic of the quote once the area and the nearest hub are known (steps 3–9).
 * Split out so the money rules can be checked with round numbers.
 */
export function priceQuote({
  areaSqm,
  nearest,
  noHubs = nearest === null,
  settings,
  aviation,
}: {
  areaSqm: number
  nearest: { hub: Pick<PricingHub, 'id' | 'name'>; distanceKm: number } | null
  noHubs?: boolean
  settings: PricingSettings
  aviation?: AviationInput
}): QuoteFigures {
  if (!(areaSqm > 0) || !nearest) return zeroQuote(Math.max(0, areaSqm || 0), noHubs)

  const distanceFromHub = nearest.distanceKm
  const tier = tierForDistance(distanceFromHub, settings)
  const rate = tierRate(tier, settings)
  const basePrice = randToCents(rate * settings.areaThreshold)
  const areaPrice = randToCents(areaSqm * rate)
  const adjustedPrice = Math.max(basePrice, areaPrice)
  const travelFee =
    tier === 'local'
      ? randToCents(settings.localTravelFee)
      : randToCents((distanceFromHub - settings.localTravelThreshold) * settings.travelFeeRate)
  const aviationFee = roundHalfAwayFromZero(aviation?.aviationFee ?? 0)
  const subtotal = adjustedPrice + aviationFee + travelFee
  const vatAmount = roundHalfAwayFromZero((subtotal * settings.vatRate) / 100)
  return {
    areaSqm,
    areaHectares: areaSqm / 10000,
    nearestHub: { id: nearest.hub.id, name: nearest.hub.name },
    distanceFromHub,
    tier,
    basePrice,
    adjustedPrice,
    travelFee,
    aviationFee,
    airspaceZone: aviation?.zoneName ?? null,
    airspaceZoneColor: aviation?.zoneColor ?? null,
    subtotal,
    vatAmount,
    totalInCents: subtotal + vatAmount,
    noHubs: false,
  }
}

/**
 * A repeat project's quote: `percent` off the survey price (the area-adjusted price;
 * travel and aviation fees are costs passed on, not discounted), rounded to whole cents half
 * away from zero, taken off the subtotal before VAT, and VAT worked out again on what is left
 * exactly as `priceQuote` does. 0 % leaves every figure as it was.
 */
export function applyRepeatDiscount(
  figures: QuoteFigures,
  percent: number,
  vatRatePercent: number,
): QuoteFigures & RepeatDiscount {
  const repeatDiscount = roundHalfAwayFromZero((figures.adjustedPrice * percent) / 100)
  if (repeatDiscount <= 0) return { ...figures, repeatDiscountPercent: percent, repeatDiscount: 0 }
  const subtotal = figures.subtotal - repeatDiscount
  const vatAmount = roundHalfAwayFromZero((subtotal * vatRatePercent) / 100)
  return {
    ...figures,
    subtotal,
    vatAmount,
    totalInCents: subtotal + vatAmount,
    repeatDiscountPercent: percent,
    repeatDiscount,
  }
}

/**
 * Internal split: margin = adjusted − base cost (not below 0); the
 * platform takes 30 % of it (rounded half away from zero), the operator the rest, so
 * the two shares always add up to the margin; the payout adds travel and aviation.
 */
export function computeInternalSplit(
  quote: Pick<QuoteFigures, 'adjustedPrice' | 'travelFee' | 'aviationFee'> & { repeatDiscount?: number },
  baseCost = BASE_COST_CENTS,
): InternalSplit {
  // A repeat discount comes out of the margin: the operator's travel and aviation are paid in full.
  const profitMargin = Math.max(0, quote.adjustedPrice - (quote.repeatDiscount ?? 0) - baseCost)
  const platformShare = roundHalfAwayFromZero((profitMargin * PLATFORM_SHARE_PERCENT) / 100)
  const operatorShare = profitMargin - platformShare
  return {
    baseCost,
    profitMargin,
    platformShare,
    operatorShare,
    operatorPayout: operatorShare + quote.travelFee + quote.aviationFee,
  }
}
