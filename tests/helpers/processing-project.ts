/**
 * A flown, paid project with geotagged photos on its survey area, and the NodeODM simulator as
 * the only enabled node: the starting point of the processing tests.
 */
import { Readable } from 'node:stream'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { checkNodes, createNode } from '#app/domain/processing/nodes.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { processingJobs, processingNodes, projects, type ProcessingPreset } from '#db/schema.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { geotaggedJpeg } from '#tests/helpers/geotagged-jpeg.ts'
import { squareAround } from '#tests/helpers/rasters.ts'
import { eq } from 'drizzle-orm'

const LAT = -33.9249
const LNG = 18.4241

/** `url` as the only enabled node, checked online. */
export async function onlyNode(url: string) {
  getDb().update(processingNodes).set({ enabled: false }).run()
  const node = createNode(null, { label: 'Simulator', url })
  await checkNodes()
  return node
}

/** A flown project with `count` geotagged photos on its survey area. */
export async function projectWithPhotos(count = 5) {
  const team = await projectWithTeam({ status: 'in_progress' })
  getDb()
    .update(projects)
    // A quoted plan (priced): its areas are the ones the job sends as ODM's boundary.
    .set({
      flightPlan: JSON.stringify({
        areas: [{ areaNumber: 1, coordinates: squareAround(LAT, LNG, 120) }],
        pricing: { totalInCents: 250_000 },
      }),
      isPaid: true,
    })
    .where(eq(projects.id, team.project.id))
    .run()
  for (let i = 0; i < count; i++) {
    await storeProjectFile({
      user: { id: team.pilot.user.id, role: 'pilot' },
      projectId: team.project.id,
      category: 'raw_image',
      originalName: `DJI_${String(i).padStart(4, '0')}.JPG`,
      source: Readable.from([
        geotaggedJpeg({ latitude: LAT + (i - count / 2) * 0.0002, longitude: LNG, altitudeM: 80 }),
      ]),
    })
  }
  return team
}

/** A job row for the project as `values` leave it (a Standard job with no options unless they say). */
export function insertJob(projectId: number, values: Partial<typeof processingJobs.$inferInsert> = {}) {
  return getDb()
    .insert(processingJobs)
    .values({ projectId, preset: 'standard', options: {}, ...values })
    .returning()
    .get()
}

/** A queued job row for the project, as `startProcessing` writes it (without starting a runner). */
export function queuedJob(projectId: number, createdBy: number, preset: ProcessingPreset = 'standard') {
  return insertJob(projectId, { createdBy, preset, stage: 'Waiting for a processing node' })
}
