/**
 * NodeODM's webhook over real HTTP against the Express app of server.ts: the node reads the
 * answer (it retries on anything but 200), so an answer must come back, whatever the body.
 */
import http from 'node:http'
import { hashSecret } from '#app/domain/processing/jobs.server.ts'
import { insertProject, signedInUser } from '#tests/factories.ts'
import { httpAppForFile } from '#tests/helpers/http-app.ts'
import { insertJob } from '#tests/helpers/processing-project.ts'
import { expect, test } from 'vitest'

const app = httpAppForFile()

/** POSTs `body` as NodeODM does (JSON, declared length) with node:http; the answer as received. */
function post(path: string, body: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(new URL(path, app.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    })
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** What NodeODM sends: the task's info and its images (a big task lists thousands). */
function nodeOdmHook(images: number) {
  return JSON.stringify({
    uuid: '5a2b9c1e-77aa-4f10-9d1c-0c1d2e3f4a5b',
    name: 'Kestrel job',
    status: { code: 40 },
    progress: 100,
    images: Array.from({ length: images }, (_, i) => `DJI_${String(i).padStart(4, '0')}.JPG`),
  })
}

test('the webhook answers 200 for a running job’s secret and 404 otherwise, with the body read', async () => {
  const client = await signedInUser('client')
  const project = insertProject({ clientId: client.user.id })
  const job = insertJob(project.id, {
    status: 'processing',
    webhookSecretHash: hashSecret('hook-secret'),
  })
  for (const images of [3, 20_000]) {
    const body = nodeOdmHook(images)
    expect(await post(`/api/processing/webhook/${job.id}/hook-secret`, body)).toEqual({
      status: 200,
      body: JSON.stringify({ ok: true }),
    })
    expect(await post(`/api/processing/webhook/${job.id}/wrong-secret`, body)).toEqual({
      status: 404,
      body: JSON.stringify({ error: 'Not found' }),
    })
    expect((await post('/api/processing/webhook/not-a-job/x', body)).status).toBe(404)
  }
}, 180_000)
