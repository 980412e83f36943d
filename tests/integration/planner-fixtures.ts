/** Test data for the planner's vitest tests: hubs, a client's draft and survey areas. */
import { createDraft } from '#app/domain/projects/projects.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { hubs } from '#db/schema.ts'
import { DEMO_HUBS } from '#db/seed.ts'

export function insertDemoHubs() {
  getDb().insert(hubs).values(DEMO_HUBS).run()
}

export function draftFor(clientId: number, name = 'Vineyard survey') {
  return createDraft(clientId, {
    name,
    projectType: 'agricultural-mapping',
    address: 'Stellenbosch, Western Cape, South Africa',
    latitude: -33.9321,
    longitude: 18.8602,
    deadline: undefined,
    description: 'Blocks A and B',
    requirements: 'NDVI maps',
  })
}

/** A rectangle of about `sizeM` metres a side with its south-west corner at (lat, lng). */
export function square(lat: number, lng: number, sizeM = 200) {
  const dLat = sizeM / 111_320
  const dLng = sizeM / (111_320 * Math.cos((lat * Math.PI) / 180))
  return {
    coordinates: [
      { latitude: lat, longitude: lng },
      { latitude: lat + dLat, longitude: lng },
      { latitude: lat + dLat, longitude: lng + dLng },
      { latitude: lat, longitude: lng + dLng },
    ],
  }
}

/** Two areas near Stellenbosch (about 38 km from the Cape Town hub: regional tier). */
export const STELLENBOSCH_AREAS = [square(-33.94, 18.86, 300), square(-33.945, 18.87, 150)]
