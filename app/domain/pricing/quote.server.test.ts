import { loadRsaAirspace } from '#app/domain/airspace/airspace.server.ts'
import { AREA_MESSAGES } from '#app/domain/geometry/areas.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { hubs, projects } from '#db/schema.ts'
import { createTestUser } from '#tests/factories.ts'
import { describe, expect, test } from 'vitest'

import { projectPricingColumns, quoteForAreas } from './quote.server.ts'
import { savePricingSettings } from './settings.server.ts'

const nearAirport = [
  { latitude: -33.99, longitude: 18.62 },
  { latitude: -33.99, longitude: 18.63 },
  { latitude: -33.98, longitude: 18.63 },
  { latitude: -33.98, longitude: 18.62 },
]

describe('quoteForAreas', () => {
  test('bad areas throw a 400 DomainError with request-shaped field names', () => {
    try {
      quoteForAreas([{ coordinates: nearAirport.slice(0, 2) }])
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError)
      expect((error as DomainError).fieldErrors).toEqual({
        'areas.0.coordinates': [AREA_MESSAGES.tooFewPoints],
      })
      expect((error as DomainError).message).toBe(AREA_MESSAGES.tooFewPoints)
    }
    expect(() => quoteForAreas([])).toThrow(AREA_MESSAGES.noAreas)
  })

  test('uses stored settings, active hubs and the airspace fee; columns fit the projects table', async () => {
    getDb()
      .insert(hubs)
      .values({ name: 'Cape Town', address: 'Cape Town', latitude: -33.9249, longitude: 18.4241 })
      .run()
    loadRsaAirspace()
    const admin = await createTestUser({ role: 'admin' })
    // A higher local rate: the area (~1.03 km²) × R0.10 beats the R2500 minimum.
    savePricingSettings({ tier1Price: 0.1 }, admin.id)
    const result = quoteForAreas([{ coordinates: nearAirport }])
    expect(result.tier).toBe('local')
    expect(result.quote.basePrice).toBe(250000) // 0.10 × 25 000 = R2500
    expect(result.quote.adjustedPrice).toBe(Math.round(result.quote.areaSqm * 0.1 * 100))
    expect(result.quote.aviationFee).toBe(85000)
    expect(result.split.operatorPayout).toBe(result.split.operatorShare + 20000 + 85000)

    const client = await createTestUser()
    const row = getDb()
      .insert(projects)
      .values({
        clientId: client.id,
        name: 'Airport block',
        projectType: 'construction-survey',
        ...projectPricingColumns(result),
      })
      .returning()
      .get()
    expect(row).toMatchObject({
      quoteAmount: result.quote.totalInCents,
      nearestHub: 'Cape Town',
      airspaceZone: 'CTR FACT 118.10',
      profitMargin: result.split.profitMargin,
    })
  })
})
