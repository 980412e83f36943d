/**
 * Retention of survey imagery (ADR 160): the daily job deletes the deliverables and flight
 * media of projects past their availability, and nothing else; the admin's extension
 * protects them; downloads of deleted files answer 410; the admin form works as a plain post.
 */
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { removeExpiredProjectFiles } from '#app/domain/files/retention.server.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { sweepStorage } from '#app/domain/files/sweep.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import {
  action as projectDialogAction,
  loader as projectDialogLoader,
} from '#app/routes/admin.projects.$projectId.tsx'
import * as downloadRoute from '#app/routes/api.download-file.$id.ts'
import { auditLog, projectFiles, projects, type FileCategory } from '#db/schema.ts'
import { getProject, projectWithTeam, signedInUser } from '#tests/factories.ts'
import { mp4Bytes, pdfBytes, PNG_BYTES } from '#tests/helpers/files.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const DAY = 24 * 60 * 60 * 1000

async function store(
  admin: { id: number; role: 'admin' },
  projectId: number,
  category: FileCategory,
  name: string,
  bytes: Uint8Array,
) {
  return storeProjectFile({
    user: admin,
    projectId,
    category,
    originalName: name,
    source: Readable.from([bytes]),
  })
}

async function completedProjectWithFiles(completedAt: Date) {
  const { client, pilot, admin, project } = await projectWithTeam({ status: 'completed', completedAt })
  const actor = { id: admin.user.id, role: 'admin' as const }
  const deliverable = await store(actor, project.id, 'processed_deliverable', 'orthomosaic.png', PNG_BYTES)
  const photo = await store(actor, project.id, 'raw_image', 'DJI_0001.png', PNG_BYTES)
  const video = await store(actor, project.id, 'raw_video', 'flight.mp4', mp4Bytes())
  const agreement = await store(actor, project.id, 'land_owner_agreement', 'annexure-g.pdf', await pdfBytes())
  const document = await store(actor, project.id, 'project_document', 'notes.pdf', await pdfBytes('Notes'))
  return { client, pilot, admin, project, deliverable, photo, video, agreement, document }
}

function row(id: number) {
  return getDb().select().from(projectFiles).where(eq(projectFiles.id, id)).get()!
}

function onDisk(id: number) {
  return fs.existsSync(absolutePathOf(row(id)))
}

function download(headers: Record<string, string>, id: number) {
  return callRoute(downloadRoute.loader, `/api/download-file/${id}`, { headers, params: { id: String(id) } })
}

describe('the daily retention job', () => {
  test('deletes the deliverables and flight media that are due, keeps the rows as the record, and nothing else', async () => {
    const now = new Date()
    const due = await completedProjectWithFiles(new Date(now.getTime() - 40 * DAY))
    const fresh = await completedProjectWithFiles(new Date(now.getTime() - 5 * DAY))
    // Not completed: never touched, however old.
    const running = await completedProjectWithFiles(new Date(now.getTime() - 90 * DAY))
    getDb().update(projects).set({ status: 'in_progress' }).where(eq(projects.id, running.project.id)).run()

    const result = await removeExpiredProjectFiles(now)
    expect(result.filesRemoved).toBe(3)
    expect(result.projects).toEqual([due.project.id])

    for (const f of [due.deliverable, due.photo, due.video]) {
      expect(row(f.id).removedAt?.getTime()).toBe(now.getTime())
      expect(onDisk(f.id)).toBe(false)
    }
    // The land owner agreement and documents stay, as do every file of the other projects.
    for (const f of [due.agreement, due.document]) {
      expect(row(f.id).removedAt).toBeNull()
      expect(onDisk(f.id)).toBe(true)
    }
    for (const p of [fresh, running])
      for (const f of [p.deliverable, p.photo, p.video, p.agreement, p.document]) {
        expect(row(f.id).removedAt).toBeNull()
        expect(onDisk(f.id)).toBe(true)
      }

    const audit = getDb().select().from(auditLog).where(eq(auditLog.action, 'files.retention-remove')).all()
    expect(audit).toHaveLength(1)
    expect(audit[0]!.entityId).toBe(String(due.project.id))
    expect(audit[0]!.actorId).toBeNull()

    // Idempotent: a second run removes nothing more.
    const again = await removeExpiredProjectFiles(new Date(now.getTime() + 1000))
    expect(again).toEqual({ filesRemoved: 0, projects: [], bytesUnlinked: 0 })
  })

  test('a run stopped between marking and unlinking is finished by the next run, and the sweep keeps the record', async () => {
    const now = new Date()
    const due = await completedProjectWithFiles(new Date(now.getTime() - 40 * DAY))
    // The state a crash after the transaction leaves: rows marked, bytes still there.
    getDb().update(projectFiles).set({ removedAt: now }).where(eq(projectFiles.id, due.photo.id)).run()
    expect(onDisk(due.photo.id)).toBe(true)

    // The start-up sweep removes bytes no stored row owns, and does not drop the record.
    await sweepStorage()
    expect(onDisk(due.photo.id)).toBe(false)
    expect(row(due.photo.id).removedAt).not.toBeNull()

    getDb().update(projectFiles).set({ removedAt: now }).where(eq(projectFiles.id, due.video.id)).run()
    const result = await removeExpiredProjectFiles(now)
    expect(onDisk(due.video.id)).toBe(false)
    expect(result.bytesUnlinked).toBeGreaterThan(0)
    expect(onDisk(due.deliverable.id)).toBe(false)
    expect(row(due.photo.id).removedAt?.getTime()).toBe(now.getTime())
  })

  test('downloads of deleted files answer 410 for admins, the pilot and the client; the client sees the record', async () => {
    const due = await completedProjectWithFiles(new Date(Date.now() - 40 * DAY))
    await removeExpiredProjectFiles()
    for (const who of [due.admin, due.pilot]) {
      const res = await download(who.headers, due.photo.id)
      expect(res.status).toBe(410)
      expect((await readJson<{ error: string }>(res)).error).toMatch(
        /^This file was deleted on \d+ \w+ \d{4}/,
      )
    }
    const res = await download(due.client.headers, due.deliverable.id)
    expect(res.status).toBe(410)
    // Still 404 for someone else: existence is not leaked.
    const stranger = await signedInUser('client')
    expect((await download(stranger.headers, due.deliverable.id)).status).toBe(404)
  })
})

describe('the admin keeps the files longer', () => {
  async function keep(headers: Record<string, string>, projectId: number, fields: Record<string, string>) {
    return callRoute(projectDialogAction, `/admin/projects/${projectId}`, {
      form: { intent: 'keep-files', ...fields },
      headers,
      params: { projectId: String(projectId) },
    })
  }

  test('a later date with a reason protects the files from the job, is audited and lets the client download', async () => {
    const p = await completedProjectWithFiles(new Date(Date.now() - 40 * DAY))
    const res = await keep(p.admin.headers, p.project.id, {
      keepUntil: '2099-12-31',
      reason: 'Client dispute',
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(`/admin/projects/${p.project.id}`)
    const project = getProject(p.project.id)
    expect(project.filesKeptUntil?.toISOString()).toBe('2099-12-31T21:59:59.999Z')
    expect(project.filesKeptReason).toBe('Client dispute')
    const audit = getDb().select().from(auditLog).where(eq(auditLog.action, 'project.files-kept')).all()
    expect(audit.map((a) => [a.actorId, a.entityId])).toEqual([[p.admin.user.id, String(p.project.id)]])

    const result = await removeExpiredProjectFiles()
    expect(result.filesRemoved).toBe(0)
    expect(onDisk(p.deliverable.id)).toBe(true)
    expect((await download(p.client.headers, p.deliverable.id)).status).toBe(200)

    const page = await callRoute(projectDialogLoader, `/admin/projects/${p.project.id}`, {
      headers: p.admin.headers,
      params: { projectId: String(p.project.id) },
    })
    const data = await readJson<{ retention: { availableUntil: string; stored: number } }>(page)
    expect(data.retention.availableUntil).toBe('2099-12-31T21:59:59.999Z')
    expect(data.retention.stored).toBe(3)
  })

  test('bad input is refused with the reason, not a 500; only admins may post', async () => {
    const p = await completedProjectWithFiles(new Date(Date.now() - 5 * DAY))
    const missing = await keep(p.admin.headers, p.project.id, { keepUntil: '', reason: '' })
    expect(missing.status).toBe(400)
    const early = await keep(p.admin.headers, p.project.id, { keepUntil: '2020-01-01', reason: 'Too early' })
    expect(early.status).toBe(400)
    const body = await readJson<{ keepResult: { error: Record<string, string[]> } }>(early)
    expect(body.keepResult.error.keepUntil?.[0]).toMatch(/^Choose a date after /)
    expect(getProject(p.project.id).filesKeptUntil).toBeNull()

    const notAdmin = await keep(p.client.headers, p.project.id, { keepUntil: '2099-01-01', reason: 'Mine' })
    expect([302, 403, 404]).toContain(notAdmin.status)
    expect(getProject(p.project.id).filesKeptUntil).toBeNull()
  })

  test('after the files were deleted there is nothing to keep (409)', async () => {
    const p = await completedProjectWithFiles(new Date(Date.now() - 40 * DAY))
    await removeExpiredProjectFiles()
    const res = await keep(p.admin.headers, p.project.id, { keepUntil: '2099-01-01', reason: 'Too late' })
    expect(res.status).toBe(409)
  })
})
