/**
 * The server's own figure for a stored flight plan (a browser's
 * quoteAmount is never trusted). Reads the areas the planner stored in
 * `projects.polygonGeoJson` and prices them with the one pricing engine
 * and the current settings.
 */
import { planPricing, quoteExpiry } from '#app/domain/flight-plan/flight-plan.ts'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import {
  projectPricingColumns,
  quoteForAreas,
  type Quote,
  type QuoteOptions,
} from '#app/domain/pricing/quote.server.ts'
import { computeInternalSplit } from '#app/domain/pricing/quote.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { projects } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { supersedeOpenPayments } from './attempts.server.ts'

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v)
}

/** The drawn areas of a stored flight plan, or null when there are none / it can't be read. */
export function flightPlanAreas(polygonGeoJson: string | null | undefined): SurveyArea[] | null {
  if (!polygonGeoJson) return null
  let plan: unknown
  try {
    plan = JSON.parse(polygonGeoJson)
    if (typeof plan === 'string') plan = JSON.parse(plan)
  } catch {
    return null
  }
  const areas = (plan as { areas?: unknown } | null)?.areas
  if (!Array.isArray(areas) || areas.length === 0) return null
  const out: SurveyArea[] = []
  for (const area of areas) {
    const coords = (area as { coordinates?: unknown } | null)?.coordinates
    if (!Array.isArray(coords)) return null
    const points = coords.map((c) => ({
      latitude: Number((c as { latitude?: unknown })?.latitude),
      longitude: Number((c as { longitude?: unknown })?.longitude),
    }))
    if (points.length < 3 || !points.every((p) => isFiniteNumber(p.latitude) && isFiniteNumber(p.longitude)))
      return null
    out.push({ coordinates: points })
  }
  return out
}

/**
 * Prices the areas with the current settings, hubs and airspace: the pricing engine's
 * `quoteForAreas` (a repeat project's with today's repeat discount).
 */
export async function recomputeQuote(
  areas: SurveyArea[],
  options: QuoteOptions = {},
  db: DbOrTx = getDb(),
): Promise<Quote> {
  return quoteForAreas(areas, db, options).quote
}

/**
 * Stores a changed quote on the project, so every page shows the figure that will be
 * charged. Call it inside the transaction that decides on the payment.
 */
export function storeRecomputedQuote(projectId: number, quote: Quote, db: DbOrTx = getDb()) {
  const current = db
    .select({
      baseCost: projects.baseCost,
      polygonGeoJson: projects.polygonGeoJson,
      quoteAmount: projects.quoteAmount,
    })
    .from(projects)
    .where(eq(projects.id, projectId))
    .get()
  // A different figure voids the attempts and invoice made for the old one.
  if (current && current.quoteAmount !== quote.totalInCents) supersedeOpenPayments(db, projectId)
  const split = computeInternalSplit(quote, current?.baseCost)
  const quotedAt = new Date()
  db.update(projects)
    .set({
      ...projectPricingColumns({ quote, split }, quotedAt),
      polygonGeoJson: withPlanPricing(current?.polygonGeoJson ?? null, quote, quotedAt),
    })
    .where(eq(projects.id, projectId))
    .run()
}

/** The stored flight plan with its pricing block brought up to date (the planner shows it). */
function withPlanPricing(polygonGeoJson: string | null, quote: Quote, quotedAt: Date): string | null {
  if (!polygonGeoJson) return polygonGeoJson
  let plan: Record<string, unknown>
  try {
    plan = JSON.parse(polygonGeoJson) as Record<string, unknown>
  } catch {
    return polygonGeoJson
  }
  if (!plan || typeof plan !== 'object' || Array.isArray(plan)) return polygonGeoJson
  const previous = (plan.pricing && typeof plan.pricing === 'object' ? plan.pricing : {}) as Record<
    string,
    unknown
  >
  return JSON.stringify({
    ...plan,
    pricing: { ...previous, ...planPricing(quote) },
    airspaceZone: quote.airspaceZone,
    quotedAt: quotedAt.toISOString(),
    validUntil: quoteExpiry(quotedAt).toISOString(),
  })
}
