/**
 * The flight plan stored as JSON text on the project (`projects.flightPlan`, column `polygon_geojson`) and the
 * quote figures derived from it. Shared: the server builds and stores it, the dashboard,
 * the planner, the mission and the checkout read it back, all through `readFlightPlan`;
 * the three edits of a stored plan (pattern text, pricing block, screenshot) are here too.
 */
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import type { Quote } from '#app/domain/pricing/quote.ts'
import { numberInput } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

export const QUOTE_VALIDITY_DAYS = 30
export const MAX_WIND = 'Wind under 10 m/s'
export const SURVEY_EQUIPMENT =
  'RTK-enabled mapping drone with a calibrated RGB camera; ground control points where accuracy needs them'
export const RETURN_TO_BASE =
  'Return to the launch point when the battery reaches 30 % or the wind rises above 10 m/s'
export const PARSE_FAILURE_MESSAGE = 'Flight plan data available but could not be parsed for display'
export const SCREENSHOT_UNAVAILABLE_MESSAGE = 'Flight area screenshot unavailable'

interface FlightPlanPoint {
  pointNumber: number
  latitude: number
  longitude: number
}

interface FlightPlanArea {
  areaNumber: number
  /** m², two decimals. */
  area: number
  areaHectares: number
  coordinates: FlightPlanPoint[]
  pilotInstructions: { flightPattern: string; returnToBase: string; boundaryPoints: number }
}

/**
 * The flight plan's stored pricing block (money in cents, distances in km): the quote's
 * figures with the hub flattened to its name and id, and the total also as `totalPrice`.
 */
export type FlightPlanPricing = Omit<PricedQuote, 'nearestHub' | 'distanceFromHub'> & {
  totalPrice: number
  nearestHub: string | null
  nearestHubId: number | null
  distanceFromHub: number | null
}

export interface FlightPlan {
  projectName: string
  address: string | null
  projectAddress: string | null
  coordinates: { lat: number; lng: number } | null
  projectType: string
  deadline: string | null
  requirements: string | null
  areas: FlightPlanArea[]
  totalArea: number
  totalAreaHectares: number
  pricing: FlightPlanPricing
  airspaceZone: string | null
  surveyInstructions: {
    totalSurveyAreas: number
    recommendedFlightHeight: string
    windConditions: string
    equipment: string
  }
  quotedAt: string
  validUntil: string
  /** A data:image URL; omitted when none was taken or it was not a valid image. */
  screenshot?: string
}

export function hectares(squareMetres: number) {
  return Math.round((squareMetres / 10000) * 10000) / 10000
}

function addDays(date: Date, days: number) {
  return new Date(date.getTime() + days * 24 * 60 * 60 * 1000)
}

/** A quote is valid for 30 days from when it was made. */
export function quoteExpiry(quotedAt: Date) {
  return addDays(quotedAt, QUOTE_VALIDITY_DAYS)
}

/** The quote fields the flight plan keeps (the quote less its area, which the plan holds per area). */
export type PricedQuote = Omit<Quote, 'areaSqm' | 'areaHectares'>

/** The flight plan's pricing block for a quote: one shape for the planner and the checkout's recompute. */
export function planPricing(quote: PricedQuote): FlightPlanPricing {
  return {
    totalInCents: quote.totalInCents,
    totalPrice: quote.totalInCents,
    nearestHub: quote.nearestHub?.name ?? null,
    nearestHubId: quote.nearestHub?.id ?? null,
    distanceFromHub: quote.nearestHub ? Math.round(quote.distanceFromHub * 1000) / 1000 : null,
    basePrice: quote.basePrice,
    adjustedPrice: quote.adjustedPrice,
    travelFee: quote.travelFee,
    aviationFee: quote.aviationFee,
    airspaceZone: quote.airspaceZone,
    airspaceZoneColor: quote.airspaceZoneColor,
    subtotal: quote.subtotal,
    vatAmount: quote.vatAmount,
    warnings: quote.warnings,
    ...(quote.repeatDiscount
      ? { repeatDiscountPercent: quote.repeatDiscountPercent, repeatDiscount: quote.repeatDiscount }
      : {}),
  }
}

const VALID_SCREENSHOT = /^data:image\/(png|jpeg|jpg|webp);base64,([A-Za-z0-9+/]+={0,2})$/

/** Only a data:image URL whose base64 decodes is a screenshot. */
export function isValidScreenshot(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_SCREENSHOT_CHARS) return false
  const match = VALID_SCREENSHOT.exec(value)
  if (!match) return false
  const payload = match[2]!
  if (payload.length % 4 !== 0 || payload.length < 16) return false
  try {
    return atob(payload.slice(0, 64)).length > 0
  } catch {
    return false
  }
}

/** A stored screenshot is at most 1 MB of image (a 0.8-scale PNG, or a JPEG when the PNG is larger). */
const MAX_SCREENSHOT_BYTES = 1024 * 1024
/** The same ceiling as a base64 data URL: the longest prefix plus 4 characters per 3 bytes. */
export const MAX_SCREENSHOT_CHARS = 'data:image/jpeg;base64,'.length + Math.ceil(MAX_SCREENSHOT_BYTES / 3) * 4

// Lenient on reading: older or hand-made plans still show what they have.
const num = numberInput(z.number().finite())
const ReadPointSchema = z
  .object({
    pointNumber: num.optional(),
    latitude: num,
    longitude: num,
  })
  .passthrough()
const ReadAreaSchema = z
  .object({
    areaNumber: num.optional(),
    area: num.optional(),
    areaHectares: num.optional(),
    coordinates: z.array(ReadPointSchema).min(3),
    pilotInstructions: z
      .object({
        flightPattern: z.string().optional(),
        returnToBase: z.union([z.string(), z.boolean()]).optional(),
        boundaryPoints: num.optional(),
      })
      .partial()
      .optional(),
  })
  .passthrough()
const ReadPlanSchema = z
  .object({
    address: z.string().nullish(),
    projectAddress: z.string().nullish(),
    projectType: z.string().nullish(),
    deadline: z.string().nullish(),
    requirements: z.string().nullish(),
    areas: z.array(ReadAreaSchema).min(1),
    totalArea: num.optional(),
    totalAreaHectares: num.optional(),
    pricing: z.record(z.unknown()).optional(),
    airspaceZone: z.string().nullish(),
    surveyInstructions: z.record(z.unknown()).optional(),
    quotedAt: z.string().optional(),
    validUntil: z.string().optional(),
    screenshot: z.string().optional(),
  })
  .passthrough()
/** A stored plan as far as it can be read: every field but the areas' points optional. */
export type StoredFlightPlan = z.infer<typeof ReadPlanSchema>

/** The stored JSON text as a value (older rows hold it as a JSON string stored twice); undefined when unreadable. */
function decode(raw: unknown): unknown {
  let value = raw
  try {
    for (let depth = 0; typeof value === 'string' && depth < 2; depth++) value = JSON.parse(value)
  } catch {
    return undefined
  }
  return value
}

/**
 * The one reader of a stored flight plan (JSON text or the object): null when it cannot be
 * read (not JSON, no area with three points, a point without a finite latitude or longitude).
 */
export function readFlightPlan(raw: unknown): StoredFlightPlan | null {
  if (raw === null || raw === undefined || raw === '') return null
  const parsed = ReadPlanSchema.safeParse(decode(raw))
  return parsed.success ? parsed.data : null
}

/** The drawn areas of a stored flight plan (what the pricing and survey engines take); null when it can't be read. */
export function flightPlanAreas(raw: unknown): SurveyArea[] | null {
  const plan = readFlightPlan(raw)
  return plan
    ? plan.areas.map((a) => ({
        coordinates: a.coordinates.map((p) => ({ latitude: p.latitude, longitude: p.longitude })),
      }))
    : null
}

export interface FlightPlanView {
  address: string | null
  projectType: string | null
  deadline: string | null
  requirements: string | null
  areas: Array<{
    areaNumber: number
    area: number
    areaHectares: number
    points: Array<{ pointNumber: number; latitude: number; longitude: number }>
    flightPattern: string | null
    returnToBase: string | null
  }>
  totalArea: number
  totalAreaHectares: number
  airspaceZone: string | null
  recommendedFlightHeight: string | null
  windConditions: string | null
  equipment: string | null
  validUntil: string | null
  hasScreenshot: boolean
}

/**
 * A stored flight plan for display; null when it cannot be read, so the view says
 * PARSE_FAILURE_MESSAGE. The screenshot is reported, not copied.
 */
export function flightPlanView(raw: unknown): FlightPlanView | null {
  const plan = readFlightPlan(raw)
  if (!plan) return null
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null)
  const areas = plan.areas.map((a, i) => ({
    areaNumber: a.areaNumber ?? i + 1,
    area: a.area ?? 0,
    areaHectares: a.areaHectares ?? hectares(a.area ?? 0),
    points: a.coordinates.map((p, j) => ({
      pointNumber: p.pointNumber ?? j + 1,
      latitude: p.latitude,
      longitude: p.longitude,
    })),
    flightPattern: str(a.pilotInstructions?.flightPattern),
    returnToBase:
      typeof a.pilotInstructions?.returnToBase === 'boolean'
        ? a.pilotInstructions.returnToBase
          ? 'Yes'
          : 'No'
        : str(a.pilotInstructions?.returnToBase),
  }))
  const totalArea = plan.totalArea ?? areas.reduce((sum, a) => sum + a.area, 0)
  return {
    address: plan.address ?? plan.projectAddress ?? null,
    projectType: plan.projectType ?? null,
    deadline: plan.deadline ?? null,
    requirements: plan.requirements ?? null,
    areas,
    totalArea,
    totalAreaHectares: plan.totalAreaHectares ?? hectares(totalArea),
    airspaceZone: plan.airspaceZone ?? str(plan.pricing?.airspaceZone),
    recommendedFlightHeight: str(plan.surveyInstructions?.recommendedFlightHeight),
    windConditions: str(plan.surveyInstructions?.windConditions),
    equipment: str(plan.surveyInstructions?.equipment),
    validUntil: plan.validUntil ?? null,
    hasScreenshot: isValidScreenshot(plan.screenshot),
  }
}

/** The admin's short account of a stored plan: none, unreadable (PARSE_FAILURE_MESSAGE), or its areas. */
export type FlightPlanSummary =
  | { status: 'none' }
  | { status: 'unparseable' }
  | {
      status: 'ok'
      areas: Array<{
        areaNumber: number
        areaSqm: number | null
        points: number
        flightPattern: string | null
        returnToBase: string | null
      }>
      totalAreaSqm: number | null
      projectType: string | null
      requirements: string | null
    }

export function summariseFlightPlan(raw: string | null | undefined): FlightPlanSummary {
  if (!raw) return { status: 'none' }
  const plan = readFlightPlan(raw)
  if (!plan) return { status: 'unparseable' }
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null)
  return {
    status: 'ok',
    areas: plan.areas.map((a, i) => ({
      areaNumber: a.areaNumber ?? i + 1,
      areaSqm: a.area ?? null,
      points: a.coordinates.length,
      flightPattern: str(a.pilotInstructions?.flightPattern),
      returnToBase: str(a.pilotInstructions?.returnToBase),
    })),
    totalAreaSqm: plan.totalArea ?? null,
    projectType: str(plan.projectType),
    requirements: str(plan.requirements),
  }
}

/** The stored plan with its pricing block (for the quote dialog); null when unreadable or not priced. */
export function quotedFlightPlan(raw: string | null): FlightPlan | null {
  const plan = readFlightPlan(raw)
  const pricing = plan?.pricing as Partial<FlightPlanPricing> | undefined
  return plan && typeof pricing?.totalInCents === 'number' ? (plan as unknown as FlightPlan) : null
}

/** A stored plan changed by `edit`; text that is not a plan object is kept as it is. */
function editFlightPlan(
  raw: string | null,
  edit: (plan: Record<string, unknown>) => Record<string, unknown>,
) {
  if (!raw) return raw
  const value = decode(raw)
  if (!value || typeof value !== 'object' || Array.isArray(value)) return raw
  return JSON.stringify(edit(value as Record<string, unknown>))
}

/** The stored flight plan with every area's pattern text replaced; anything unreadable is kept as it is. */
export function withFlightPattern(raw: string | null, text: string): string | null {
  return editFlightPlan(raw, (plan) => {
    if (!Array.isArray(plan.areas)) return plan
    for (const area of plan.areas as Array<{ pilotInstructions?: Record<string, unknown> } | null>) {
      if (area && typeof area.pilotInstructions === 'object' && area.pilotInstructions !== null)
        area.pilotInstructions.flightPattern = text
    }
    return plan
  })
}

/** The stored flight plan with its pricing block brought up to date (the planner shows it). */
export function withPlanPricing(raw: string | null, quote: PricedQuote, quotedAt: Date): string | null {
  return editFlightPlan(raw, (plan) => {
    const previous = (plan.pricing && typeof plan.pricing === 'object' ? plan.pricing : {}) as Record<
      string,
      unknown
    >
    return {
      ...plan,
      pricing: { ...previous, ...planPricing(quote) },
      airspaceZone: quote.airspaceZone,
      quotedAt: quotedAt.toISOString(),
      validUntil: quoteExpiry(quotedAt).toISOString(),
    }
  })
}

/** The stored flight plan without its screenshot (lists and the API; the screenshot has its own route). */
export function withoutScreenshot(raw: string | null): string | null {
  if (!raw || !raw.includes('"screenshot"')) return raw
  return editFlightPlan(raw, ({ screenshot: _screenshot, ...rest }) => rest)
}
