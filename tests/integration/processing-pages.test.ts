/**
 * The processing pages without JavaScript: Process photos from the admin's project dialog
 * (a plain form), the node forms in the settings, the client's status page with its meta
 * refresh, and 404 for someone else's project.
 */
import { Readable } from 'node:stream'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { createNode } from '#app/domain/processing/nodes.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as nodesForm from '#app/routes/admin.processing-nodes.tsx'
import * as processingForm from '#app/routes/admin.projects.$projectId_.processing.tsx'
import * as projectDialog from '#app/routes/admin.projects.$projectId.tsx'
import * as statusPage from '#app/routes/projects.$projectId.processing.tsx'
import { processingJobs, processingNodes } from '#db/schema.ts'
import { projectWithTeam, signedInUser } from '#tests/factories.ts'
import { geotaggedJpeg } from '#tests/helpers/geotagged-jpeg.ts'
import { callRoute, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'

/** A flown project with the five placed photos the photo check asks for at least. */
async function withPhotos(count = 5) {
  const team = await projectWithTeam({ status: 'in_progress' })
  for (let i = 1; i <= count; i++) {
    await storeProjectFile({
      user: { id: team.pilot.user.id, role: 'pilot' },
      projectId: team.project.id,
      category: 'raw_image',
      originalName: `DJI_000${i}.JPG`,
      source: Readable.from([geotaggedJpeg({ latitude: -33.92 + i * 0.0001, longitude: 18.42 })]),
    })
  }
  return team
}

test('Process photos as a plain form: a job is queued; the dialog shows it; the client follows it', async () => {
  getDb().update(processingNodes).set({ enabled: false }).run()
  const node = createNode(null, { label: 'Form node', url: 'http://127.0.0.1:9' })
  getDb().update(processingNodes).set({ online: true }).where(eq(processingNodes.id, node.id)).run()
  const { admin, client, project } = await withPhotos()
  const id = String(project.id)

  const dialog = await callRoute(projectDialog.loader, `/admin/projects/${id}`, {
    headers: admin.headers,
    params: { projectId: id },
  })
  const before = (await dialog.json()) as { processing: { photoCount: number; jobs: unknown[] } }
  expect(before.processing).toMatchObject({ photoCount: 5, jobs: [] })

  const bad = await callRoute(processingForm.action, `/admin/projects/${id}/processing`, {
    form: { intent: 'processing-start', preset: 'standard', options: 'no-equals-sign' },
    headers: admin.headers,
    params: { projectId: id },
  })
  expect(bad.status).toBe(302)
  expect(await toastOf(bad)).toMatchObject({
    type: 'error',
    description: '“no-equals-sign” is not name=value',
  })

  const clientTry = await callRoute(processingForm.action, `/admin/projects/${id}/processing`, {
    form: { intent: 'processing-start', preset: 'standard' },
    headers: client.headers,
    params: { projectId: id },
  })
  expect(clientTry.status).not.toBe(302)
  expect(getDb().select().from(processingJobs).where(eq(processingJobs.projectId, project.id)).all()).toEqual(
    [],
  )

  const started = await callRoute(processingForm.action, `/admin/projects/${id}/processing`, {
    form: { intent: 'processing-start', preset: 'fast-orthophoto', nodeId: '' },
    headers: admin.headers,
    params: { projectId: id },
  })
  expect(started.headers.get('Location')).toBe(`/admin/projects/${id}#pd-processing`)
  expect(await toastOf(started)).toMatchObject({ title: 'Processing started' })
  const job = getDb().select().from(processingJobs).where(eq(processingJobs.projectId, project.id)).get()!
  expect(job).toMatchObject({ preset: 'fast-orthophoto', status: 'queued', imagesCount: 5 })

  const statusFor = async (stage: string) => {
    getDb()
      .update(processingJobs)
      .set({ status: 'processing', progressPercent: 62, stage })
      .where(eq(processingJobs.id, job.id))
      .run()
    const page = await callRoute(statusPage.loader, `/projects/${id}/processing`, {
      headers: client.headers,
      params: { projectId: id },
    })
    expect(page.status).toBe(200)
    return (await page.json()) as {
      live: boolean
      jobs: Array<{ status: string; progressPercent: number; stage: string }>
    }
  }
  // While it runs the page is live (refreshed by itself); the client reads ODM's stage in plain words…
  const data = await statusFor('Matching the photos (OpenSfM)')
  expect(data.live).toBe(true)
  expect(data.jobs[0]).toMatchObject({
    status: 'processing',
    progressPercent: 62,
    stage: 'Matching the photos (OpenSfM)',
  })
  // …never the node's own words.
  const noisy = await statusFor(
    'Processing: fetch failed http://user:pw@odm.internal:3000/task/abc; trying again',
  )
  expect(noisy.jobs[0]!.stage).toBe('Processing')

  const stranger = await signedInUser('client')
  const hidden = await callRoute(statusPage.loader, `/projects/${id}/processing`, {
    headers: stranger.headers,
    params: { projectId: id },
  })
  expect(hidden.status).toBe(404)

  const cancel = await callRoute(processingForm.action, `/admin/projects/${id}/processing`, {
    form: { intent: 'processing-cancel', jobId: String(job.id) },
    headers: admin.headers,
    params: { projectId: id },
  })
  expect(await toastOf(cancel)).toMatchObject({ title: 'Processing cancelled' })
  expect(getDb().select().from(processingJobs).where(eq(processingJobs.id, job.id)).get()!.status).toBe(
    'canceled',
  )
})

test('the settings’ node forms add, edit, disable and remove a node without JavaScript', async () => {
  const admin = await signedInUser('admin')
  const post = (form: Record<string, string>) =>
    callRoute(nodesForm.action, '/admin/processing-nodes', { form, headers: admin.headers })
  const bad = await post({ intent: 'node-add', label: 'Bad', url: 'file:///etc/passwd' })
  expect(await toastOf(bad)).toMatchObject({
    type: 'error',
    description: 'Enter the node’s http:// or https:// address',
  })
  await post({ intent: 'node-add', label: 'Box', url: 'https://odm.example', token: 's3cret' })
  const node = getDb().select().from(processingNodes).where(eq(processingNodes.label, 'Box')).get()!
  expect(node).toMatchObject({ url: 'https://odm.example', token: 's3cret', enabled: true })
  await post({
    intent: 'node-edit',
    id: String(node.id),
    label: 'Box 2',
    url: 'https://odm2.example',
    token: '',
  })
  expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()).toMatchObject({
    label: 'Box 2',
    url: 'https://odm2.example',
    token: 's3cret',
  })
  await post({ intent: 'node-enabled', id: String(node.id), enabled: 'false' })
  expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()!.enabled).toBe(
    false,
  )
  const removed = await post({ intent: 'node-delete', id: String(node.id) })
  expect(await toastOf(removed)).toMatchObject({ title: 'Node removed' })
  expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()).toBeUndefined()
})
