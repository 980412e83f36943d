/**
 * 'Complete Project' (spec section 4): admin only, at least one processed deliverable,
 * the project becomes completed with completedAt, and the client gets a mail with a
 * link to the deliverables (through a real SMTP server).
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { projects } from '#db/schema.ts'
import { resetEnvCache } from '#app/domain/config/env.server.ts'
import { getDb } from '#app/domain/db/db.server.ts'
import { deliverablesAvailable, deliverablesAvailableUntil } from '#app/domain/projects/deliverables.ts'
import * as completeRoute from '#app/routes/api.admin.complete-project.ts'
import { addTestFile, createTestProject } from '#tests/helpers/admin-data.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { startTestSmtpServer } from '#tests/helpers/smtp-server.ts'
import { createTestUser, signedInUser } from '#tests/helpers/users.ts'

let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>
beforeAll(async () => {
  smtp = await startTestSmtpServer()
  process.env.SMTP_URL = smtp.url
  resetEnvCache()
})
afterAll(async () => {
  delete process.env.SMTP_URL
  resetEnvCache()
  await smtp.close()
})

const complete = (json: unknown, headers: Record<string, string>) => callRoute(completeRoute.action, '/api/admin/complete-project', { json, headers })

describe('POST /api/admin/complete-project', () => {
  test('completes a project with a deliverable and e-mails the client a link to it', async () => {
    const admin = await signedInUser('admin')
    const client = await createTestUser({ role: 'client', firstName: 'Clara' })
    const project = await createTestProject({ clientId: client.id, paid: true, status: 'in_progress' })
    addTestFile(project.id, 'application/pdf', 'processed_deliverable')
    const res = await complete({ projectId: project.id }, admin.headers)
    expect(res.status).toBe(200)
    expect(await readJson(res)).toMatchObject({ success: true, clientNotified: true, deliverables: 1, project: { status: 'completed' } })
    const row = getDb().select().from(projects).where(eq(projects.id, project.id)).get()!
    expect(row.status).toBe('completed')
    expect(row.completedAt).toBeInstanceOf(Date)
    expect(row.clientNotifiedAt).toBeInstanceOf(Date)
    const mail = await smtp.waitFor((m) => m.to.includes(client.email))
    expect(mail.subject).toBe(`Your survey data is ready: ${project.name}`)
    expect(mail.text).toContain(`/dashboard?tab=projects&view=${project.id}`)
    expect(mail.text).toContain('Hi Clara')
  })

  test('needs at least one processed deliverable: 400 with the spec message, nothing changes', async () => {
    const admin = await signedInUser('admin')
    const project = await createTestProject({ paid: true, status: 'in_progress' })
    addTestFile(project.id, 'image/jpeg') // raw media is not a deliverable
    const res = await complete({ projectId: project.id }, admin.headers)
    expect(res.status).toBe(400)
    expect(await readJson(res)).toMatchObject({ error: 'Please upload at least one processed file', title: 'No files selected' })
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.status).toBe('in_progress')
  })

  test('409 when already completed or unpaid; 404 unknown; 400 bad body', async () => {
    const admin = await signedInUser('admin')
    const done = await createTestProject({ paid: true, status: 'completed' })
    addTestFile(done.id, 'application/pdf', 'processed_deliverable')
    expect((await complete({ projectId: done.id }, admin.headers)).status).toBe(409)
    const unpaid = await createTestProject({ status: 'pending' })
    addTestFile(unpaid.id, 'application/pdf', 'processed_deliverable')
    expect((await complete({ projectId: unpaid.id }, admin.headers)).status).toBe(409)
    expect((await complete({ projectId: 999999 }, admin.headers)).status).toBe(404)
    for (const body of [{}, { projectId: 'x' }, { projectId: -1 }]) {
      const res = await complete(body, admin.headers)
      expect(res.status).toBe(400)
      expect((await readJson<{ fieldErrors: object }>(res)).fieldErrors).toHaveProperty('projectId')
    }
  })

  test('401 signed out, 403 for a client or a pilot', async () => {
    const project = await createTestProject({ paid: true, status: 'in_progress' })
    addTestFile(project.id, 'application/pdf', 'processed_deliverable')
    expect((await complete({ projectId: project.id }, {})).status).toBe(401)
    expect((await complete({ projectId: project.id }, (await signedInUser('client')).headers)).status).toBe(403)
    expect((await complete({ projectId: project.id }, (await signedInUser('pilot')).headers)).status).toBe(403)
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.status).toBe('in_progress')
  })
})

describe('deliverable availability', () => {
  test('one calendar month after completion', () => {
    expect(deliverablesAvailableUntil(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z')
    expect(deliverablesAvailableUntil(new Date('2026-11-23T10:00:00Z')).toISOString()).toBe('2026-12-23T10:00:00.000Z')
    expect(deliverablesAvailable(new Date('2026-01-01T00:00:00Z'), new Date('2026-01-31T00:00:00Z'))).toBe(true)
    expect(deliverablesAvailable(new Date('2026-01-01T00:00:00Z'), new Date('2026-02-02T00:00:00Z'))).toBe(false)
    expect(deliverablesAvailable(null)).toBe(true)
  })
})
