/**
 * What the import skipped is the admin's to read: `GET /api/projects/{id}/processing` and the
 * admin's project dialog give each job's `skipped`; the client and the pilot never see it.
 */
import * as projectDialog from '#app/routes/admin.projects.$projectId.tsx'
import * as jobsRoute from '#app/routes/api.projects.$id.processing.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { insertJob } from '#tests/helpers/processing-project.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { expect, test } from 'vitest'

const SKIPPED = [
  { path: 'odm_texturing/odm_textured_model_geo.glb', reason: '5 bytes: not a glTF model' },
  { path: 'odm_report/report.pdf', reason: '0 bytes: empty' },
]

test('admins read each job’s skips; clients and pilots do not', async () => {
  const { admin, client, pilot, project } = await projectWithTeam({ status: 'in_progress' })
  const job = insertJob(project.id, {
    status: 'completed',
    skipped: SKIPPED,
    finishedAt: new Date(),
  })
  const id = String(project.id)
  const jobsAs = async (who: { headers: Record<string, string> }) => {
    const res = await callRoute(jobsRoute.loader, `/api/projects/${id}/processing`, {
      headers: who.headers,
      params: { id },
    })
    expect(res.status).toBe(200)
    return (await readJson<{ jobs: Array<Record<string, unknown>> }>(res)).jobs
  }
  expect((await jobsAs(admin))[0]).toMatchObject({ id: job.id, skipped: SKIPPED })
  expect((await jobsAs(client))[0]).not.toHaveProperty('skipped')
  expect((await jobsAs(pilot))[0]).not.toHaveProperty('skipped')

  const dialog = await callRoute(projectDialog.loader, `/admin/projects/${id}`, {
    headers: admin.headers,
    params: { projectId: id },
  })
  const data = (await dialog.json()) as { processing: { jobs: Array<{ skipped: unknown }> } }
  expect(data.processing.jobs[0]!.skipped).toEqual(SKIPPED)
})
