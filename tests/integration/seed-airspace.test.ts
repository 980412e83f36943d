import { clearZones, countZones, insertZones } from '#app/domain/airspace/airspace.server.ts'
import { seedDemo } from '#db/seed.ts'
import { sampleZone } from '#tests/helpers/airspace-data.ts'
import { expect, test } from 'vitest'

test('the demo seed loads the national airspace only when there are no zones', async () => {
  await seedDemo()
  expect(countZones()).toBe(255)
  // An admin's own zones are left alone on the next start.
  clearZones()
  insertZones([sampleZone('Own zone')])
  await seedDemo()
  expect(countZones()).toBe(1)
})
