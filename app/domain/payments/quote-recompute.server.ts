/**
 * The server's own figure for a stored flight plan (a browser's
 * quoteAmount is never trusted). Reads the areas the planner stored in
 * `projects.flightPlan` and prices them with the one pricing engine
 * and the current settings.
 */
import { withPlanPricing } from '#app/domain/flight-plan/flight-plan.ts'
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
      flightPlan: projects.flightPlan,
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
      flightPlan: withPlanPricing(current?.flightPlan ?? null, quote, quotedAt),
    })
    .where(eq(projects.id, projectId))
    .run()
}
