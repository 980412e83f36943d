/**
 * A deliverable's accuracy statement: the admin's PUT (400 with field errors, 404 for another
 * project's file, admins only), the no-JS form beside the deliverable, what the client's
 * deliverables and a share link show, and "accuracy not stated" without one.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { accuracyText, type Deliverable } from '#app/domain/deliverables/deliverable.ts'
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import * as completeRoute from '#app/routes/admin.projects.$projectId_.complete.tsx'
import * as accuracyRoute from '#app/routes/api.projects.$id.deliverables.$fileId.accuracy.ts'
import * as oneRoute from '#app/routes/api.projects.$id.deliverables.$fileId.ts'
import * as shareRoute from '#app/routes/s.$token.tsx'
import { projectWithTeam, storeRasterDeliverable } from '#tests/factories.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

let dir: string
let source: string
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kestrel-accuracy-'))
  source = path.join(dir, 'Orthomosaic.tif')
  await fs.writeFile(source, Buffer.from('II*\0 not read by these tests'))
})
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

async function delivered() {
  const team = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  const file = await storeRasterDeliverable(team.project.id, source, 'orthomosaic', team.admin.user.id)
  return { ...team, file }
}

const STATEMENT = { horizontalRmseM: 0.04, verticalRmseM: 0.06, gcpCount: 6, checkpointCount: 3 }

function put(headers: Record<string, string>, projectId: number, fileId: number, json: unknown) {
  return callRoute(accuracyRoute.action, `/api/projects/${projectId}/deliverables/${fileId}/accuracy`, {
    method: 'PUT',
    headers,
    json,
    params: { id: String(projectId), fileId: String(fileId) },
  })
}

async function deliverableAs(headers: Record<string, string>, projectId: number, fileId: number) {
  const res = await callRoute(oneRoute.loader, `/api/projects/${projectId}/deliverables/${fileId}`, {
    headers,
    params: { id: String(projectId), fileId: String(fileId) },
  })
  expect(res.status).toBe(200)
  return (await readJson<{ deliverable: Deliverable }>(res)).deliverable
}

describe('the statement in words', () => {
  test('the spec’s sentence, singulars, decimals in the house style, and none', () => {
    expect(accuracyText({ ...STATEMENT, gsdCm: null, source: 'admin' })).toBe(
      '± 4 cm horizontal, ± 6 cm vertical, 6 GCPs, 3 check points',
    )
    expect(
      accuracyText({
        horizontalRmseM: 0.025,
        verticalRmseM: 0.1,
        gcpCount: 1,
        checkpointCount: 1,
        gsdCm: 2,
        source: 'odm',
      }),
    ).toBe('± 2,5 cm horizontal, ± 10 cm vertical, 1 GCP, 1 check point')
    expect(accuracyText(null)).toBe('accuracy not stated')
  })
})

describe('PUT /api/projects/{id}/deliverables/{fileId}/accuracy', () => {
  test('an admin states it; the client reads it on the deliverable; DELETE removes it', async () => {
    const { admin, client, project, file } = await delivered()
    expect((await deliverableAs(client.headers, project.id, file.id)).accuracy).toBeNull()
    const res = await put(admin.headers, project.id, file.id, STATEMENT)
    expect(res.status).toBe(200)
    expect((await readJson<{ deliverable: Deliverable }>(res)).deliverable.accuracy).toEqual({
      ...STATEMENT,
      gsdCm: null,
      source: 'admin',
    })
    expect((await deliverableAs(client.headers, project.id, file.id)).accuracy).toMatchObject(STATEMENT)

    const removed = await callRoute(
      accuracyRoute.action,
      `/api/projects/${project.id}/deliverables/${file.id}/accuracy`,
      {
        method: 'DELETE',
        headers: admin.headers,
        params: { id: String(project.id), fileId: String(file.id) },
      },
    )
    expect(removed.status).toBe(200)
    expect((await deliverableAs(client.headers, project.id, file.id)).accuracy).toBeNull()
  })

  test('bad values are 400 with a message per field, and nothing is stored', async () => {
    const { admin, project, file } = await delivered()
    const res = await put(admin.headers, project.id, file.id, {
      horizontalRmseM: -1,
      verticalRmseM: 'six',
      gcpCount: 2.5,
    })
    expect(res.status).toBe(400)
    const body = await readJson<{ error: string; fieldErrors: Record<string, string[]> }>(res)
    expect(Object.keys(body.fieldErrors).sort()).toEqual([
      'checkpointCount',
      'gcpCount',
      'horizontalRmseM',
      'verticalRmseM',
    ])
    expect(body.fieldErrors.horizontalRmseM![0]).toMatch(/Horizontal RMSE/)
    expect((await deliverableAs(admin.headers, project.id, file.id)).accuracy).toBeNull()
  })

  test('another project’s file is 404; a client or pilot may not state it', async () => {
    const one = await delivered()
    const other = await delivered()
    expect((await put(one.admin.headers, one.project.id, other.file.id, STATEMENT)).status).toBe(404)
    expect((await put(one.client.headers, one.project.id, one.file.id, STATEMENT)).status).toBe(403)
    expect((await put(one.pilot.headers, one.project.id, one.file.id, STATEMENT)).status).toBe(403)
    expect((await deliverableAs(one.admin.headers, other.project.id, other.file.id)).accuracy).toBeNull()
  })
})

describe('the admin’s form beside the deliverable (no JavaScript)', () => {
  const post = (headers: Record<string, string>, projectId: number, form: Record<string, string>) =>
    callRoute(completeRoute.action, `/admin/projects/${projectId}/complete`, {
      headers,
      form,
      params: { projectId: String(projectId) },
    })

  test('saves, answers bad values with the field’s message, and removes', async () => {
    const { admin, project, file } = await delivered()
    const fields = { intent: 'deliverable-accuracy', fileId: String(file.id) }
    const bad = await post(admin.headers, project.id, {
      ...fields,
      horizontalRmseM: '0',
      verticalRmseM: '0.06',
      gcpCount: '6',
      checkpointCount: '3',
    })
    expect(bad.status).toBe(400)
    const errors = await readJson<{ accuracy: { fileId: number; fieldErrors: Record<string, string[]> } }>(
      bad,
    )
    expect(errors.accuracy.fileId).toBe(file.id)
    expect(Object.keys(errors.accuracy.fieldErrors)).toEqual(['horizontalRmseM'])

    const saved = await post(admin.headers, project.id, {
      ...fields,
      horizontalRmseM: '0.04',
      verticalRmseM: '0.06',
      gcpCount: '6',
      checkpointCount: '3',
    })
    expect(saved.status).toBe(302)
    expect((await toastOf(saved))?.title).toBe('Accuracy statement saved')
    expect((await deliverableAs(admin.headers, project.id, file.id)).accuracy).toMatchObject(STATEMENT)

    const cleared = await post(admin.headers, project.id, { ...fields, clear: '1' })
    expect(cleared.status).toBe(302)
    expect((await deliverableAs(admin.headers, project.id, file.id)).accuracy).toBeNull()
  })
})

describe('share pages', () => {
  test('a share link carries the statement; without one the page says "accuracy not stated"', async () => {
    const { admin, client, project, file } = await delivered()
    const { url } = createShareLink(client.user, project.id, { allowDownload: false })
    const token = url.slice(url.lastIndexOf('/') + 1)
    const viewer = async () => {
      const res = await callRoute(shareRoute.loader, `/s/${token}`, { params: { token } })
      expect(res.status).toBe(200)
      return readJson<{ files: { id: number; accuracy: Deliverable['accuracy'] }[] }>(res)
    }
    expect((await viewer()).files.find((f) => f.id === file.id)!.accuracy).toBeNull()
    await put(admin.headers, project.id, file.id, STATEMENT)
    expect((await viewer()).files.find((f) => f.id === file.id)!.accuracy).toMatchObject(STATEMENT)
  })
})
