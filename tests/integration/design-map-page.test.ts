/** The Map view's design surfaces as the server renders them (no JavaScript), over real HTTP. */
import { getDb } from '#app/lib/db/db.server.ts'
import { designSurfaces } from '#db/schema.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { httpAppForFile } from '#tests/helpers/http-app.ts'
import { expect, test } from 'vitest'

const app = httpAppForFile()

async function page(path: string, headers: Record<string, string>) {
  const res = await fetch(new URL(path, app.base), { headers, redirect: 'manual' })
  expect(res.status).toBe(200)
  return res.text()
}

test('members see the list; only an admin sees the upload form and Delete, which asks first', async () => {
  const { admin, client, project } = await projectWithTeam({ status: 'completed', completedAt: new Date() })
  const ring: [number, number][] = [
    [18.42, -33.92],
    [18.421, -33.92],
    [18.421, -33.921],
    [18.42, -33.92],
  ]
  const design = getDb()
    .insert(designSurfaces)
    .values({
      projectId: project.id,
      name: 'Terrace platform',
      kind: 'landxml',
      originalName: 'terrace.xml',
      fileName: `designs/${project.id}/a.xml`,
      rasterName: `designs/${project.id}/a-design.tif`,
      crs: 'EPSG:32734',
      outline: { type: 'Polygon', coordinates: [ring] },
      extent: [18.42, -33.921, 18.421, -33.92],
      minElevationM: 9.5,
      maxElevationM: 11.8,
      createdBy: admin.user.id,
    })
    .returning()
    .get()
  const base = `/projects/${project.id}/map`

  const seen = await page(base, client.headers)
  expect(seen).toContain('Design surfaces and cut/fill')
  expect(seen).toContain('Terrace platform')
  expect(seen).toContain('LandXML TIN · EPSG:32734')
  expect(seen).not.toContain('Add the design surface')
  expect(seen).not.toContain('Delete the design surface')

  const managed = await page(base, admin.headers)
  expect(managed).toMatch(/encType="multipart\/form-data"/i)
  expect(managed).toContain('Add the design surface')
  expect(managed).toContain(`href="${base}?deleteDesign=${design.id}#design-surfaces"`)
  expect(managed).not.toContain('name="intent" value="design-delete"')

  const asking = await page(`${base}?deleteDesign=${design.id}`, admin.headers)
  expect(asking).toContain('Delete this design surface?')
  expect(asking).toContain('name="intent" value="design-delete"')
  expect(asking).toContain(`name="designId" value="${design.id}"`)
})
