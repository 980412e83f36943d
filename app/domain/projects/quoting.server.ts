/**
 * The authoritative quote for a project's areas, from the pricing engine (feat/pricing):
 * current settings, active hubs and the airspace check. One seam, so the planner and
 * the API price exactly as /api/quote does.
 */
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import { getDb, type DbOrTx } from '#app/domain/db/db.server.ts'
import { listActiveHubs } from '#app/domain/hubs/active-hubs.server.ts'
import { computeInternalSplit, computeQuote, type InternalSplit, type QuoteFigures } from '#app/domain/pricing/quote.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'

export interface ProjectQuote extends QuoteFigures {
  warnings: string[]
}

export function quoteProjectAreas(areas: SurveyArea[], db: DbOrTx = getDb()): { quote: ProjectQuote; split: InternalSplit } {
  const quote = computeQuote({ areas, hubs: listActiveHubs(db), settings: getPricingSettings(db) })
  return { quote: { ...quote, warnings: [] }, split: computeInternalSplit(quote) }
}
