/**
 * A 10-area quote against the full national airspace dataset (255 zones).
 * Goal: median under 2 ms. Run: npm run bench -- bench/airspace-check.bench.ts
 * (add `--outputJson out.json` to read the median; the table shows mean and percentiles).
 * The areas sit around Cape Town, Johannesburg and Durban, where the zones are densest.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { bench, describe } from 'vitest'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-bench-'))
process.env.DATABASE_PATH = path.join(dir, 'bench.sqlite')
process.env.NODE_ENV = 'test'

const { getDb } = await import('#app/lib/db/db.server.ts')
const { hubs } = await import('#db/schema.ts')
const { loadRsaAirspace, checkFlightArea } = await import('#app/domain/airspace/airspace.server.ts')
const { quoteForAreas, quoteForValidatedAreas } = await import('#app/domain/pricing/quote.server.ts')
const { QuoteRequestSchema } = await import('#app/domain/geometry/areas.ts')

getDb()
  .insert(hubs)
  .values([
    { name: 'Cape Town', address: 'Cape Town', latitude: -33.9249, longitude: 18.4241 },
    { name: 'Johannesburg', address: 'Johannesburg', latitude: -26.2041, longitude: 28.0473 },
    { name: 'Durban', address: 'Durban', latitude: -29.8587, longitude: 31.0218 },
  ])
  .run()
loadRsaAirspace()

/** A rough 12-point ring of radius `r` degrees around (lat, lng). */
const ring = (lat: number, lng: number, r = 0.006) => ({
  coordinates: Array.from({ length: 12 }, (_, i) => ({
    latitude: lat + r * Math.sin((i / 12) * 2 * Math.PI),
    longitude: lng + r * Math.cos((i / 12) * 2 * Math.PI),
  })),
})

const areas = [
  ring(-33.99, 18.62), // beside FACT
  ring(-33.93, 18.86), // Stellenbosch
  ring(-33.8, 18.5),
  ring(-34.05, 18.45),
  ring(-26.14, 28.25), // OR Tambo
  ring(-26.0, 28.0),
  ring(-25.8, 27.92), // Pelindaba
  ring(-29.61, 31.12), // King Shaka
  ring(-29.9, 30.95),
  ring(-32.6, 22.6), // Karoo
]
const body = { areas }

// Warm the zone index once (as the first request after a start would).
quoteForAreas(areas)

// Long runs: the shared machine is noisy, and the median needs many samples.
const options = { time: 3000, warmupIterations: 50 }

describe('10 areas against the national dataset', () => {
  bench(
    'POST /api/quote after auth: QuoteRequestSchema + quoteForValidatedAreas',
    () => {
      quoteForValidatedAreas(QuoteRequestSchema.parse(body).areas)
    },
    options,
  )
  bench(
    'quoteForValidatedAreas (settings + hubs + airspace check + engine)',
    () => {
      quoteForValidatedAreas(areas)
    },
    options,
  )
  bench(
    'quoteForAreas (validation included)',
    () => {
      quoteForAreas(areas)
    },
    options,
  )
  bench(
    'checkFlightArea only',
    () => {
      checkFlightArea(areas)
    },
    options,
  )
})
