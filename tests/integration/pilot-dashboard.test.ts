/** The pilot's /dashboard: the loader's jobs and the 'Save Project Progress' form (no JavaScript needed). */
import { getDb } from '#app/lib/db/db.server.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import * as filesRoute from '#app/routes/pilot.projects.$projectId.files.ts'
import { flightLogs, projectFiles, projects } from '#db/schema.ts'
import { createTestProject, signedInUser } from '#tests/factories.ts'
import { multipart, PNG_BYTES } from '#tests/helpers/files.ts'
import { callRoute, readJson, toastOf } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

async function pilotWithJob() {
  const pilot = await signedInUser('pilot')
  const project = await createTestProject({ paid: true, status: 'assigned' })
  getDb().update(projects).set({ pilotId: pilot.user.id }).where(eq(projects.id, project.id)).run()
  return { ...pilot, project }
}

describe('pilot dashboard', () => {
  test('lists the assigned jobs and opens the one in ?project=', async () => {
    const { headers, project } = await pilotWithJob()
    await createTestProject({ paid: true, status: 'assigned', name: 'Not mine' })
    const res = await callRoute(dashboard.loader, `/dashboard?project=${project.id}`, { headers })
    const data = await readJson<{
      role: string
      projects: Array<{ id: number }>
      openJob: { id: number } | null
    }>(res)
    expect(data.role).toBe('pilot')
    expect(data.projects.map((p) => p.id)).toEqual([project.id])
    expect(data.openJob?.id).toBe(project.id)
  })

  test('a project that is not theirs does not open', async () => {
    const { headers } = await pilotWithJob()
    const other = await createTestProject({ paid: true, status: 'assigned' })
    const data = await readJson<{ openJob: { id: number } | null }>(
      await callRoute(dashboard.loader, `/dashboard?project=${other.id}`, { headers }),
    )
    expect(data.openJob).toBeNull()
  })

  test('Save Project Progress logs hours + minutes / 60 with the Progress Saved toast', async () => {
    const { headers, project, user } = await pilotWithJob()
    const res = await callRoute(dashboard.action, `/dashboard?project=${project.id}`, {
      headers,
      form: { intent: 'save-progress', projectId: String(project.id), hours: '1', minutes: '30' },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(`/dashboard?project=${project.id}`)
    expect(await toastLine(res)).toContain('Progress Saved')
    const logs = getDb().select().from(flightLogs).where(eq(flightLogs.pilotId, user.id)).all()
    expect(logs.map((l) => l.hours)).toEqual([1.5])
    expect(getDb().select().from(projects).where(eq(projects.id, project.id)).get()!.status).toBe('assigned')
  })

  test('out-of-range or empty durations and other pilots’ projects are refused with Error Saving Progress', async () => {
    const { headers, project } = await pilotWithJob()
    for (const [hours, minutes] of [
      ['13', '0'],
      ['1', '60'],
      ['', ''],
      ['0', '0'],
      ['-1', '10'],
    ]) {
      const res = await callRoute(dashboard.action, '/dashboard', {
        headers,
        form: { intent: 'save-progress', projectId: String(project.id), hours: hours!, minutes: minutes! },
      })
      expect(res.status).toBe(400)
      expect(await toastLine(res)).toContain('Error Saving Progress')
    }
    const other = await createTestProject({ paid: true, status: 'assigned' })
    const res = await callRoute(dashboard.action, '/dashboard', {
      headers,
      form: { intent: 'save-progress', projectId: String(other.id), hours: '1', minutes: '0' },
    })
    expect(res.status).toBe(404)
    expect(await toastLine(res)).toContain('Project not found')
    const client = await signedInUser('client')
    const asClient = await callRoute(dashboard.action, '/dashboard', {
      headers: client.headers,
      form: { intent: 'save-progress', projectId: String(project.id), hours: '1', minutes: '0' },
    })
    expect(asClient.status).toBe(403)
    expect(getDb().select().from(flightLogs).where(eq(flightLogs.projectId, project.id)).all()).toHaveLength(
      0,
    )
  })

  test('Update Profile saves the pilot’s name and phone', async () => {
    const { headers, user } = await pilotWithJob()
    const res = await callRoute(dashboard.action, '/dashboard?tab=profile', {
      headers,
      form: {
        intent: 'update-profile',
        firstName: 'Thandi',
        lastName: 'Nkosi',
        phone: '0831234567',
        companyName: '',
      },
    })
    expect(res.status).toBe(200)
    const data = await readJson<{ profile: { firstName: string; phone: string } }>(
      await callRoute(dashboard.loader, '/dashboard?tab=profile', { headers }),
    )
    expect(data.profile.firstName).toBe('Thandi')
    expect(data.profile.phone).toBe('831234567')
    expect(user.id).toBeGreaterThan(0)
  })
})

describe('pilot file forms without JavaScript', () => {
  test('uploads a photo to an assigned job, deletes it again; other pilots get 404', async () => {
    const { headers, project, user } = await pilotWithJob()
    const params = { projectId: String(project.id) }
    const path = `/pilot/projects/${project.id}/files`
    const upload = () =>
      multipart(
        { intent: 'upload-file', projectId: String(project.id), category: 'raw_image' },
        { name: 'DJI_0001.png', bytes: PNG_BYTES, type: 'image/png' },
      )
    const res = await callRoute(filesRoute.action, path, { headers, params, form: upload() })
    expect(res.headers.get('Location')).toBe(`/dashboard?project=${project.id}`)
    expect(await toastLine(res)).toBe('Upload successful: DJI_0001.png')
    const stored = getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()
    expect(stored).toEqual([
      expect.objectContaining({
        originalName: 'DJI_0001.png',
        fileCategory: 'raw_image',
        fileType: 'image/png',
        uploadedBy: user.id,
      }),
    ])

    const other = await signedInUser('pilot')
    expect(
      (await callRoute(filesRoute.action, path, { headers: other.headers, params, form: upload() })).status,
    ).toBe(404)
    expect(
      (
        await callRoute(filesRoute.action, path, {
          headers: other.headers,
          params,
          form: { intent: 'delete-file', fileId: String(stored[0]!.id) },
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await callRoute(filesRoute.action, path, {
          headers: (await signedInUser('client')).headers,
          params,
          form: upload(),
        })
      ).status,
    ).toBe(403)

    const deleted = await callRoute(filesRoute.action, path, {
      headers,
      params,
      form: { intent: 'delete-file', fileId: String(stored[0]!.id) },
    })
    expect(await toastLine(deleted)).toBe('File Deleted: DJI_0001.png')
    expect(
      getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all(),
    ).toHaveLength(0)
  })

  test('a photo named in UTF-8 keeps its name (the toast and the stored row)', async () => {
    const { headers, project } = await pilotWithJob()
    const name = 'Ré-survey Ōkahu.png'
    const res = await callRoute(filesRoute.action, `/pilot/projects/${project.id}/files`, {
      headers,
      params: { projectId: String(project.id) },
      form: multipart(
        { projectId: String(project.id), category: 'raw_image' },
        { name, bytes: PNG_BYTES, type: 'image/png' },
      ),
    })
    expect(await toastLine(res)).toBe(`Upload successful: ${name}`)
    const stored = getDb().select().from(projectFiles).where(eq(projectFiles.projectId, project.id)).all()
    expect(stored.map((f) => f.originalName)).toEqual([name])
  })
})

/** The flashed toast as 'title: description'. */
async function toastLine(res: Response) {
  const toast = await toastOf(res)
  return `${toast?.title}: ${toast?.description}`
}
