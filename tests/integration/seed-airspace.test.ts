import { clearZones, countZones, insertZones } from '#app/domain/airspace/airspace.server.ts'
import { seedDemo } from '#db/seed.ts'
import { expect, test } from 'vitest'

test('the demo seed loads the national airspace only when there are no zones', async () => {
  await seedDemo()
  expect(countZones()).toBe(255)
  // An admin's own zones are left alone on the next start.
  clearZones()
  insertZones([
    {
      zoneName: 'Own zone',
      zoneType: 'Controlled',
      color: '#2563eb',
      aviationFee: 85000,
      polygon: {
        type: 'Polygon',
        coordinates: [
          [
            [18, -33],
            [18.1, -33],
            [18.1, -33.1],
            [18, -33],
          ],
        ],
      },
    },
  ])
  await seedDemo()
  expect(countZones()).toBe(1)
})
