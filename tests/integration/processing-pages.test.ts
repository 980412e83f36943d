/**
 * The processing pages without JavaScript: Process photos from the admin's project dialog
 * (a plain form) and its outputs choice, the node forms in the settings, the client's status page with its meta
 * refresh, and 404 for someone else's project.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { createNode } from '#app/domain/processing/nodes.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as nodesForm from '#app/routes/admin.processing-nodes.tsx'
import * as processingForm from '#app/routes/admin.projects.$projectId_.processing.tsx'
import * as projectDialog from '#app/routes/admin.projects.$projectId.tsx'
import * as statusPage from '#app/routes/projects.$projectId.processing.tsx'
import { deliverableViews, processingJobs, processingNodes, projectFiles, projects } from '#db/schema.ts'
import { projectWithTeam, signedInUser } from '#tests/factories.ts'
import { geotaggedJpeg } from '#tests/helpers/geotagged-jpeg.ts'
import { callRoute, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'

/** A node that answers /info as NodeODM does. */
async function infoServer() {
  const server = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json')
    res.end(JSON.stringify({ version: '2.2.4', taskQueueCount: 0, engine: 'odm', engineVersion: '3.5.6' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

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
  expect(JSON.stringify(noisy)).not.toMatch(/odm\.internal|user:pw/)

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
  // Added: asked at once, so the answer says online with the engine, or offline with why.
  const { url: nodeUrl, close } = await infoServer()
  try {
    const added = await post({ intent: 'node-add', label: 'Box', url: nodeUrl, token: 's3cret' })
    expect(await toastOf(added)).toMatchObject({
      type: 'success',
      title: 'Node added',
      description: 'Box is online (ODM 3.5.6).',
    })
    const node = getDb().select().from(processingNodes).where(eq(processingNodes.label, 'Box')).get()!
    expect(node).toMatchObject({ url: nodeUrl, token: 's3cret', enabled: true, online: true })

    const unreachable = await post({ intent: 'node-add', label: 'Gone', url: 'http://127.0.0.1:9' })
    expect(await toastOf(unreachable)).toMatchObject({
      type: 'error',
      title: 'Node added: offline',
      description:
        'Gone did not answer: Could not reach http://127.0.0.1:9/info: ECONNREFUSED. It is kept and checked every 30 seconds.',
    })
    expect(
      getDb().select().from(processingNodes).where(eq(processingNodes.label, 'Gone')).get(),
    ).toMatchObject({
      online: false,
      lastError: 'Could not reach http://127.0.0.1:9/info: ECONNREFUSED',
    })

    // Edited to an address that does not answer: asked at once, shown offline.
    const edited = await post({
      intent: 'node-edit',
      id: String(node.id),
      label: 'Box 2',
      url: 'http://127.0.0.1:9',
      token: '',
    })
    expect(await toastOf(edited)).toMatchObject({ type: 'error', title: 'Node updated: offline' })
    expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()).toMatchObject(
      {
        label: 'Box 2',
        url: 'http://127.0.0.1:9',
        token: 's3cret',
        online: false,
      },
    )
    await post({ intent: 'node-edit', id: String(node.id), label: 'Box 2', url: nodeUrl })
  } finally {
    await close()
  }
  const node = getDb().select().from(processingNodes).where(eq(processingNodes.label, 'Box 2')).get()!
  expect(node.online).toBe(true)
  await post({ intent: 'node-enabled', id: String(node.id), enabled: 'false' })
  expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()!.enabled).toBe(
    false,
  )
  const removed = await post({ intent: 'node-delete', id: String(node.id) })
  expect(await toastOf(removed)).toMatchObject({ title: 'Node removed' })
  expect(getDb().select().from(processingNodes).where(eq(processingNodes.id, node.id)).get()).toBeUndefined()
})

test('a job’s outputs choice as plain forms: replace or add when starting and while it runs; “Publish now” past a failed viewing copy', async () => {
  getDb().update(processingNodes).set({ enabled: false }).run()
  const node = createNode(null, { label: 'Outputs node', url: 'http://127.0.0.1:9' })
  getDb().update(processingNodes).set({ online: true }).where(eq(processingNodes.id, node.id)).run()
  const { admin, project } = await withPhotos()
  const id = String(project.id)
  const post = (form: Record<string, string>) =>
    callRoute(processingForm.action, `/admin/projects/${id}/processing`, {
      form,
      headers: admin.headers,
      params: { projectId: id },
    })

  await post({ intent: 'processing-start', preset: 'standard', outputs: 'add' })
  const job = getDb().select().from(processingJobs).where(eq(processingJobs.projectId, project.id)).get()!
  expect(job.outputs).toBe('add')
  expect(
    await toastOf(await post({ intent: 'processing-outputs', jobId: String(job.id), outputs: 'sideways' })),
  ).toMatchObject({ type: 'error', description: 'Choose replace or add' })
  const saved = await post({ intent: 'processing-outputs', jobId: String(job.id), outputs: 'replace' })
  expect(await toastOf(saved)).toMatchObject({ title: 'Choice saved' })
  expect(getDb().select().from(processingJobs).where(eq(processingJobs.id, job.id)).get()!.outputs).toBe(
    'replace',
  )

  // Completed on a delivered project with a viewing copy of its outputs failed: held.
  const held = await storeProjectFile({
    user: admin.user,
    projectId: project.id,
    category: 'processed_deliverable',
    originalName: 'Report.pdf',
    source: Readable.from([Buffer.from('%PDF-1.4\n%%EOF\n')]),
    processingJobId: job.id,
  })
  getDb().insert(deliverableViews).values({ fileId: held.id, status: 'failed', error: 'Not readable' }).run()
  getDb()
    .update(projects)
    .set({ status: 'completed', completedAt: new Date() })
    .where(eq(projects.id, project.id))
    .run()
  getDb().update(processingJobs).set({ status: 'completed' }).where(eq(processingJobs.id, job.id)).run()
  const dialog = await callRoute(projectDialog.loader, `/admin/projects/${id}`, {
    headers: admin.headers,
    params: { projectId: id },
  })
  const shown = (await dialog.json()) as { processing: { jobs: Array<{ id: number; outputsState: string }> } }
  expect(shown.processing.jobs[0]).toMatchObject({
    id: job.id,
    outputsState: 'held',
  })

  const published = await post({
    intent: 'processing-outputs',
    jobId: String(job.id),
    outputs: 'replace',
    publishNow: 'true',
  })
  expect(await toastOf(published)).toMatchObject({ title: 'Outputs published' })
  expect(getDb().select().from(projectFiles).where(eq(projectFiles.id, held.id)).get()!.withheld).toBe(false)
  expect(
    getDb().select().from(processingJobs).where(eq(processingJobs.id, job.id)).get()!.publishedAt,
  ).toBeInstanceOf(Date)
})
