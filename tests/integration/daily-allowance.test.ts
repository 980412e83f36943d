/**
 * The per-account daily allowance of stored bytes (ADR 130): a client's documents past it
 * are refused (429, nothing stored) on every upload path; screenshots past it are left
 * out of the quote, which still succeeds. Staff uploads and other clients are unaffected.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { createTusServer } from '#app/domain/files/tus.server.ts'
import {
  DAILY_STORED_BYTES,
  DAILY_UPLOAD_LIMIT_MESSAGE,
  DAILY_UPLOAD_LIMIT_TITLE,
  dailyAllowanceLeft,
  takeDailyAllowance,
} from '#app/domain/users/daily-allowance.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as completeRoute from '#app/routes/api.client.projects.$id.complete.ts'
import * as uploadRoute from '#app/routes/api.upload.ts'
import { projectFiles, projects } from '#db/schema.ts'
import { insertProject, signedInUser } from '#tests/factories.ts'
import { multipart, pdfBytes, PNG_BYTES } from '#tests/helpers/files.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { tusMetadata } from '#tests/helpers/tus.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { draftFor, insertDemoHubs, STELLENBOSCH_AREAS } from './planner-fixtures.ts'

insertDemoHubs()

const PNG_URL = `data:image/png;base64,${PNG_BYTES.toString('base64')}`

/** Leaves `userId` only `bytes` of today's allowance. */
function spendAllBut(kind: keyof typeof DAILY_STORED_BYTES, userId: number, bytes: number) {
  expect(takeDailyAllowance(kind, userId, dailyAllowanceLeft(kind, userId) - bytes)).toBe(true)
}

describe('the daily allowance', () => {
  test('is counted per account and per UTC day', () => {
    const day = new Date('2026-11-23T23:59:00Z')
    expect(takeDailyAllowance('clientDocuments', 501, DAILY_STORED_BYTES.clientDocuments, day)).toBe(true)
    expect(takeDailyAllowance('clientDocuments', 501, 1, day)).toBe(false)
    expect(dailyAllowanceLeft('clientDocuments', 502, day)).toBe(DAILY_STORED_BYTES.clientDocuments)
    expect(dailyAllowanceLeft('clientDocuments', 501, new Date('2026-11-24T00:00:01Z'))).toBe(
      DAILY_STORED_BYTES.clientDocuments,
    )
  })

  test("a client's document past it is refused with 429 and nothing is stored; staff and other clients upload", async () => {
    const client = await signedInUser('client')
    const otherClient = await signedInUser('client')
    const pilot = await signedInUser('pilot')
    const project = insertProject({ clientId: client.user.id, pilotId: pilot.user.id })
    const otherProject = insertProject({ clientId: otherClient.user.id })
    const bytes = await pdfBytes()
    const send = (headers: Record<string, string>, projectId: number, category: string) =>
      callRoute(uploadRoute.action, '/api/upload', {
        form: multipart(
          { projectId: String(projectId), category },
          { name: 'agreement.pdf', bytes, type: 'application/pdf' },
        ),
        headers,
      })

    spendAllBut('clientDocuments', client.user.id, bytes.length - 1)
    spendAllBut('clientDocuments', pilot.user.id, 0)
    const refused = await send(client.headers, project.id, 'land_owner_agreement')
    expect(refused.status).toBe(429)
    expect(await readJson(refused)).toEqual({
      error: DAILY_UPLOAD_LIMIT_MESSAGE,
      title: DAILY_UPLOAD_LIMIT_TITLE,
    })
    expect(getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()).toEqual(
      [],
    )
    expect(fs.readdirSync(storagePaths().tmp)).toEqual([])

    expect((await send(pilot.headers, project.id, 'project_document')).status).toBe(201)
    expect((await send(otherClient.headers, otherProject.id, 'project_document')).status).toBe(201)

    // tus refuses at creation, before a byte is sent.
    const tus = createTusServer()
    const created = await tus.server.handleWeb(
      new Request('http://localhost:3999/api/tus', {
        method: 'POST',
        headers: {
          ...client.headers,
          'Tus-Resumable': '1.0.0',
          'Upload-Length': String(bytes.length),
          'Upload-Metadata': [
            `filename ${Buffer.from('agreement.pdf').toString('base64')}`,
            `filetype ${Buffer.from('application/pdf').toString('base64')}`,
            `projectId ${Buffer.from(String(project.id)).toString('base64')}`,
            `category ${Buffer.from('land_owner_agreement').toString('base64')}`,
          ].join(','),
        },
      }),
    )
    expect(created.status).toBe(429)
    expect(await created.json()).toMatchObject({ error: DAILY_UPLOAD_LIMIT_MESSAGE })
  })

  test('past it, a re-plan is still quoted and stored, without the screenshot', async () => {
    const complete = async (headers: Record<string, string>, id: number) => {
      const res = await callRoute(completeRoute.action, `/api/client/projects/${id}/complete`, {
        method: 'PUT',
        json: { areas: STELLENBOSCH_AREAS, screenshot: PNG_URL },
        headers,
        params: { id: String(id) },
      })
      expect(res.status).toBe(200)
      const row = getDb().select().from(projects).where(eq(projects.id, id)).get()!
      return JSON.parse(row.flightPlan!) as { screenshot?: string; areas: unknown[] }
    }
    const client = await signedInUser('client')
    const other = await signedInUser('client')
    spendAllBut('screenshots', client.user.id, PNG_URL.length)
    const draft = draftFor(client.user.id)
    expect((await complete(client.headers, draft.id)).screenshot).toBe(PNG_URL)
    const again = await complete(client.headers, draft.id)
    expect(again.areas).toHaveLength(2)
    expect(again).not.toHaveProperty('screenshot')
    expect((await complete(other.headers, draftFor(other.user.id).id)).screenshot).toBe(PNG_URL)
  })
})

describe("a client's unfinished tus uploads", () => {
  const MB = 1024 * 1024
  async function setting(expirationMs?: number) {
    const client = await signedInUser('client')
    const project = insertProject({ clientId: client.user.id })
    // Its own folder: a short expiration must not reach the other tests' uploads.
    const directory = expirationMs ? fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-tus-')) : undefined
    const tus = createTusServer(expirationMs ? { expirationMs, directory } : {})
    const create = (bytes: number) =>
      tus.server.handleWeb(
        new Request('http://localhost:3999/api/tus', {
          method: 'POST',
          headers: {
            ...client.headers,
            'Tus-Resumable': '1.0.0',
            'Upload-Length': String(bytes),
            'Upload-Metadata': tusMetadata({
              filename: 'site-walk.mp4',
              filetype: 'video/mp4',
              projectId: String(project.id),
              category: 'project_document',
            }),
          },
        }),
      )
    return { client, tus, create }
  }

  test('count against the allowance until they are terminated (nothing sent: the bytes are still held)', async () => {
    const { client, tus, create } = await setting()
    const first = await create(150 * MB)
    expect(first.status).toBe(201)
    // 150 MB held + 100 MB > 200 MB a day, although nothing was stored yet.
    const second = await create(100 * MB)
    expect(second.status).toBe(429)
    expect(await second.json()).toMatchObject({ error: DAILY_UPLOAD_LIMIT_MESSAGE })
    expect(dailyAllowanceLeft('clientDocuments', client.user.id)).toBe(DAILY_STORED_BYTES.clientDocuments)

    const terminated = await tus.server.handleWeb(
      new Request(new URL(first.headers.get('Location')!, 'http://localhost:3999/api/tus/'), {
        method: 'DELETE',
        headers: { ...client.headers, 'Tus-Resumable': '1.0.0' },
      }),
    )
    expect(terminated.status).toBe(204)
    expect((await create(100 * MB)).status).toBe(201)
  })

  test('expire after the expiration period without a byte, and then no longer count', async () => {
    const { tus, create } = await setting(1500)
    expect((await create(150 * MB)).status).toBe(201)
    expect((await create(100 * MB)).status).toBe(429)
    await new Promise((resolve) => setTimeout(resolve, 1700))
    expect(await tus.server.cleanUpExpiredUploads()).toBe(1)
    expect((await create(100 * MB)).status).toBe(201)
  })
})
