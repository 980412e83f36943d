import { getDb } from '#app/lib/db/db.server.ts'
import { projectFiles } from '#db/schema.ts'
import { projectWithTeam, storeDeliverable } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

import { setFileHooks, type FileHooks } from './file-hooks.server.ts'

/** The smallest TIFF the content check reads as one (a header and an empty directory). */
const TIFF = Buffer.concat([Buffer.from('II*\0', 'latin1'), Buffer.from([8, 0, 0, 0, 0, 0, 0, 0, 0, 0])])
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

let restore: FileHooks | null = null
afterEach(() => {
  setFileHooks(restore)
})

const rowsOf = (projectId: number) =>
  getDb().select().from(projectFiles).where(eq(projectFiles.projectId, projectId)).all()

describe('file hooks', () => {
  test('a TIFF deliverable stored with no pipeline loaded is refused with the reason, and nothing is kept', async () => {
    restore = setFileHooks(null)
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    await expect(
      storeDeliverable({ id: admin.user.id, role: 'admin' }, project.id, 'ortho.tif', TIFF),
    ).rejects.toThrow(
      /No deliverable pipeline is loaded: a image\/tiff deliverable .* never get its viewing copy/,
    )
    expect(rowsOf(project.id)).toHaveLength(0)
  })

  test('a deliverable that needs no viewing copy (a PNG) is stored without the pipeline', async () => {
    restore = setFileHooks(null)
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    const file = await storeDeliverable({ id: admin.user.id, role: 'admin' }, project.id, 'ortho.png', PNG)
    expect(rowsOf(project.id).map((r) => r.id)).toEqual([file.id])
  })

  test('with a pipeline plugged in, the stored TIFF is handed to it after the commit', async () => {
    const stored: number[] = []
    restore = setFileHooks({ stored: async (id) => void stored.push(id), removed: async () => {} })
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    const file = await storeDeliverable({ id: admin.user.id, role: 'admin' }, project.id, 'ortho.tif', TIFF)
    expect(stored).toEqual([file.id])
    expect(rowsOf(project.id)[0]).toMatchObject({ fileType: 'image/tiff' })
  })
})
