/**
 * The authoritative quote for a project's areas: the pricing engine's `quoteForAreas`
 * (settings, active hubs, airspace check), the same call behind POST /api/quote.
 */
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import { quoteForAreas, type Quote, type QuoteOptions } from '#app/domain/pricing/quote.server.ts'
import type { InternalSplit } from '#app/domain/pricing/quote.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'

export type ProjectQuote = Quote & { noHubs: boolean }

export function quoteProjectAreas(
  areas: SurveyArea[],
  db: DbOrTx = getDb(),
  options: QuoteOptions = {},
): { quote: ProjectQuote; split: InternalSplit } {
  const result = quoteForAreas(areas, db, options)
  return { quote: { ...result.quote, noHubs: result.noHubs }, split: result.split }
}
