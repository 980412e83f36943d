/** A completed project with real deliverables on disk, and its people, for the share and download-all tests. */
import { Readable } from 'node:stream'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { projectFiles, projects } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import { insertProject, mp4Bytes, pdfBytes, PNG_BYTES } from './files.ts'
import { signedInUser } from './users.ts'

export async function storeDeliverable(
  admin: { id: number; role: 'admin' },
  projectId: number,
  name: string,
  bytes: Uint8Array,
) {
  return storeProjectFile({
    user: admin,
    projectId,
    category: 'processed_deliverable',
    originalName: name,
    source: Readable.from([Buffer.from(bytes)]),
  })
}

/** Client, other client, pilot, admin, and a project completed `completedDaysAgo` ago with three deliverables. */
export async function deliveredProject({ completedDaysAgo = 1 }: { completedDaysAgo?: number } = {}) {
  const client = await signedInUser('client')
  const otherClient = await signedInUser('client')
  const pilot = await signedInUser('pilot')
  const admin = await signedInUser('admin')
  const project = insertProject({ clientId: client.user.id, pilotId: pilot.user.id, status: 'in_progress' })
  const adminActor = { id: admin.user.id, role: 'admin' as const }
  const report = await storeDeliverable(adminActor, project.id, 'Survey report.pdf', await pdfBytes('Report'))
  const image = await storeDeliverable(adminActor, project.id, 'Orthomosaic preview.png', PNG_BYTES)
  const video = await storeDeliverable(adminActor, project.id, 'Flyover.mp4', mp4Bytes(64 * 1024))
  // The kinds the content check gives these files (set here so the tests don't depend on it).
  for (const [file, kind] of [
    [report, 'report'],
    [image, 'image'],
    [video, 'video'],
  ] as const) {
    getDb().update(projectFiles).set({ deliverableKind: kind }).where(eq(projectFiles.id, file.id)).run()
  }
  const completedAt = new Date(Date.now() - completedDaysAgo * 24 * 60 * 60 * 1000)
  getDb().update(projects).set({ status: 'completed', completedAt }).where(eq(projects.id, project.id)).run()
  return { client, otherClient, pilot, admin, project, files: { report, image, video } }
}
