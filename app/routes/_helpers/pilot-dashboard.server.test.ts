import { getDb } from '#app/lib/db/db.server.ts'
import { loadPilotTabs } from '#app/routes/_helpers/pilot-dashboard.server.ts'
import { projects } from '#db/schema.ts'
import { createTestProject, createTestUser } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'

test('the open job comes with its drone and the mission file that drone flies from', async () => {
  const pilot = await createTestUser({ role: 'pilot' })
  const project = await createTestProject({ paid: true, status: 'assigned' })
  getDb().update(projects).set({ pilotId: pilot.id }).where(eq(projects.id, project.id)).run()

  const open = await loadPilotTabs(pilot.id, new URL(`http://x/dashboard?project=${project.id}`))
  // No drone chosen: the default drone (a Mavic 3 Enterprise) flies DJI Pilot 2's KMZ.
  expect(open.openJob?.mission).toEqual({ droneName: 'DJI Mavic 3 Enterprise (M3E)', format: 'kmz' })

  const list = await loadPilotTabs(pilot.id, new URL('http://x/dashboard?tab=projects'))
  expect(list.openJob).toBeNull()
})
