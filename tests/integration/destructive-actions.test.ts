/**
 * Delete and Revoke look like what they are and deleting a file asks first (issue 24): the page
 * as the server renders it (no JavaScript), over real HTTP.
 */
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import { SHARE_MESSAGES } from '#app/domain/sharing/share-rules.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatFileSize } from '#app/lib/format/numbers.ts'
import { projectFiles, projects, sites } from '#db/schema.ts'
import {
  addTestFile,
  createTestProject,
  deliveredProject,
  insertProject,
  signedInUser,
} from '#tests/factories.ts'
import { httpAppForFile } from '#tests/helpers/http-app.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const app = httpAppForFile()

async function page(path: string, headers: Record<string, string>) {
  const res = await fetch(new URL(path, app.base), { headers, redirect: 'manual' })
  expect(res.status).toBe(200)
  return res.text()
}

/** The opening tag of the element that carries `marker` (an attribute or its text follows it). */
function tagBefore(html: string, marker: string) {
  const at = html.indexOf(marker)
  expect(at, `${marker} is on the page`).toBeGreaterThan(-1)
  const start = html.lastIndexOf('<', at)
  return html.slice(start, html.indexOf('>', start) + 1)
}

describe('deleting a deliverable asks first', () => {
  test('Delete opens a confirmation naming the file and its size; only the confirmation posts, as a red button', async () => {
    const admin = await signedInUser('admin')
    const project = await createTestProject({ paid: true, status: 'in_progress' })
    const file = addTestFile(project.id, 'image/tiff', 'processed_deliverable')
    const size = 21_474_836_480
    getDb()
      .update(projectFiles)
      .set({ originalName: 'Huge ortho.tif', fileSize: size })
      .where(eq(projectFiles.id, file.id))
      .run()
    const base = `/admin/projects/${project.id}/complete`
    const listed = await page(base, admin.headers)
    // Delete only asks: a GET form back to this page with the confirmation open.
    const button = tagBefore(listed, 'aria-label="Delete Huge ortho.tif"')
    expect(button).toContain('btn-danger-quiet')
    const form = listed.slice(
      listed.lastIndexOf('<form', listed.indexOf('aria-label="Delete Huge ortho.tif"')),
    )
    expect(form).toMatch(new RegExp(`^<form method="get" action="${base}"`))
    expect(form.slice(0, form.indexOf('</form>'))).toContain(`name="confirmDeleteFile" value="${file.id}"`)
    expect(listed).not.toContain('name="intent" value="delete-file"')

    const asking = await page(`${base}?confirmDeleteFile=${file.id}`, admin.headers)
    expect(asking).toContain('Delete this file?')
    expect(asking).toContain('Huge ortho.tif')
    expect(asking).toContain(formatFileSize(size))
    expect(asking).toContain('name="intent" value="delete-file"')
    expect(asking).toContain(`name="fileId" value="${file.id}"`)
    const confirm = tagBefore(asking, 'data-variant="danger"')
    expect(confirm).toContain('btn-danger')
    expect(confirm).not.toContain('btn-primary')
    // Cancel goes back to the list without the confirmation.
    expect(asking).toContain(`href="${base}"`)
  })

  test('a confirmation for a file the user may not delete is not shown', async () => {
    const admin = await signedInUser('admin')
    const project = await createTestProject({ paid: true, status: 'in_progress' })
    const file = addTestFile(project.id, 'application/pdf', 'processed_deliverable')
    getDb().update(projects).set({ status: 'completed' }).where(eq(projects.id, project.id)).run()
    const html = await page(
      `/admin/projects/${project.id}/complete?confirmDeleteFile=${file.id}`,
      admin.headers,
    )
    expect(html).not.toContain('Delete this file?')
  })
})

describe('Revoke looks like what it is', () => {
  test('the Share page’s Revoke is the red outlined button, Create the primary one', async () => {
    const setting = await deliveredProject()
    createShareLink(setting.client.user, setting.project.id, { allowDownload: false })
    const html = await page(`/projects/${setting.project.id}/share`, setting.client.headers)
    const button = html.slice(html.indexOf('value="revoke-share-link"'))
    expect(tagBefore(button, '>Revoke<')).toContain('btn-danger-quiet')
    expect(tagBefore(html, '>Create share link<')).toContain('btn-primary')
  })
})

describe('the share dialog', () => {
  test('says what a view-only viewer gets and what downloads add; a site’s repeat carries its survey date', async () => {
    const setting = await deliveredProject()
    const other = insertProject({
      clientId: setting.client.user.id,
      status: 'completed',
      completedAt: new Date(Date.now() - 40 * 86_400_000),
    })
    const site = getDb()
      .insert(sites)
      .values({ clientId: setting.client.user.id, name: 'Yard' })
      .returning()
      .get()
    for (const id of [setting.project.id, other.id])
      getDb().update(projects).set({ siteId: site.id }).where(eq(projects.id, id)).run()
    const completedAt = getDb().select().from(projects).where(eq(projects.id, setting.project.id)).get()!
      .completedAt
    const html = decodeEntities(await page(`/projects/${setting.project.id}/share`, setting.client.headers))
    expect(html).toContain(SHARE_MESSAGES.viewOnlyGets)
    expect(html).toContain(SHARE_MESSAGES.downloadGets)
    const date = formatDate(completedAt, { short: true })
    expect(html).toContain(`(survey of ${date})`)
    expect(html).toContain(`Survey report (${date}).pdf`)
  })
})

function decodeEntities(html: string) {
  return html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/<!-- -->/g, '')
}
