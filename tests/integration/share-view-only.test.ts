/**
 * What a share link gives away (issue 24): a view-only link reads a reduced viewing copy (the
 * elevation model as colours), can read the PDF report inline, and nothing is served from the
 * browser's cache after a revoke; a project moved back from completed stops its links; a file
 * missing on disk is a 404, not a closed connection.
 */
import fs from 'node:fs'
import path from 'node:path'
import { getDb } from '#app/domain/db/db.server.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import * as shareLinksRoute from '#app/routes/api.projects.$id.share-links.ts'
import * as shareViewRoute from '#app/routes/s.$token_.files.$fileId_.view.$variant.ts'
import * as shareFileRoute from '#app/routes/s.$token_.files.$fileId.ts'
import * as viewerRoute from '#app/routes/s.$token.tsx'
import { projectFiles } from '#db/schema.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { deliveredProject } from '#tests/helpers/sharing.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const fileRow = (id: number) => getDb().select().from(projectFiles).where(eq(projectFiles.id, id)).get()!

let addressCounter = 0
const freshIp = () => `203.0.113.${(addressCounter++ % 250) + 1}`

async function linkFor(
  setting: Awaited<ReturnType<typeof deliveredProject>>,
  json: { allowDownload: boolean; fileIds?: number[] },
) {
  const res = await callRoute(shareLinksRoute.action, `/api/projects/${setting.project.id}/share-links`, {
    json,
    headers: setting.client.headers,
    params: { id: String(setting.project.id) },
  })
  expect(res.status).toBe(201)
  const { url, id } = await readJson<{ url: string; id: number }>(res)
  return { id, token: url.split('/s/')[1]! }
}

const openViewer = (token: string) =>
  callRoute(viewerRoute.loader, `/s/${token}`, { params: { token }, context: { clientIp: freshIp() } })

const fetchShared = (token: string, fileId: number) =>
  callRoute(shareFileRoute.loader, `/s/${token}/files/${fileId}`, {
    params: { token, fileId: String(fileId) },
    context: { clientIp: freshIp() },
  })

const fetchView = (token: string, fileId: number, variant: string, headers: Record<string, string> = {}) =>
  callRoute(shareViewRoute.loader, `/s/${token}/files/${fileId}/view/${variant}`, {
    params: { token, fileId: String(fileId), variant },
    headers,
    context: { clientIp: freshIp() },
  })

describe('a shared file missing on disk', () => {
  test('is a 404 with the JSON error, not a closed connection', async () => {
    const setting = await deliveredProject()
    const { token } = await linkFor(setting, { allowDownload: true })
    fs.rmSync(absolutePathOf(fileRow(setting.files.video.id)))
    const res = await fetchShared(token, setting.files.video.id)
    expect(res.status).toBe(404)
    expect(await readJson(res)).toEqual({ error: 'File not found' })
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer')
  })
})
