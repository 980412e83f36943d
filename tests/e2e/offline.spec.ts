/**
 * The pilot's offline job pack and queued uploads (JavaScript only: a service worker and
 * IndexedDB). A pilot saves an assigned job for offline use, loses the signal and reloads:
 * the job card, the areas (with map tiles from the local tile server, saved in the pack)
 * and the flight plan are still there. A photo picked offline waits as queued and uploads
 * when the signal returns; a larger upload cut by a page reload continues by itself from
 * the server's offset, sending only the missing bytes. Without JavaScript the pilot
 * journey (pilot.spec.ts) is unchanged.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import Database from 'better-sqlite3'

import { setTileServerMode } from '../helpers/tile-server.ts'
import { e2eDir, e2eStateFile } from '../setup/e2e-env.ts'
import { expectToast, PILOT_EMAIL, seedPaidProject } from './admin-fixtures.ts'
import { DEMO_PASSWORD, signIn, slowUplink } from './fixtures.ts'

test.describe.configure({ timeout: 180_000 })

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

function openDb(readonly = false) {
  return new Database(path.join(e2eDir, 'kestrel.sqlite'), { readonly })
}

/** A paid project assigned to the demo pilot (the admin's assignment is pilot.spec's journey). */
function seedAssignedJob(name: string) {
  const seeded = seedPaidProject(name)
  const db = openDb()
  try {
    db.prepare(
      `update projects set pilot_id = (select id from users where email = ?), status = 'assigned' where id = ?`,
    ).run(PILOT_EMAIL, seeded.projectId)
  } finally {
    db.close()
  }
  return seeded
}

function storedFile(projectId: number, name: string) {
  const db = openDb(true)
  try {
    return db
      .prepare(
        'select sha256, file_size as size from project_files where project_id = ? and original_name = ?',
      )
      .get(projectId, name) as { sha256: string; size: number } | undefined
  } finally {
    db.close()
  }
}

const tusDir = path.join(e2eDir, 'files', 'tus')

function tusUploadsOnDisk() {
  return fs.existsSync(tusDir) ? fs.readdirSync(tusDir).filter((f) => !f.endsWith('.json')) : []
}

/** Bytes the server holds of the unfinished tus uploads not in `before` (its own files on disk). */
function tusBytesOnDisk(before: string[]) {
  const sizes = tusUploadsOnDisk()
    .filter((f) => !before.includes(f))
    .map((f) => fs.statSync(path.join(tusDir, f)).size)
  return Math.max(0, ...sizes)
}

/** Files kept in this browser's upload queue. */
async function keptUploads(page: Page) {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('kestrel-uploads')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('queue')) return resolve(0)
          const count = db.transaction('queue').objectStore('queue').count()
          count.onsuccess = () => resolve(count.result)
          count.onerror = () => reject(count.error)
        }
      }),
  )
}

function tileOrigin() {
  return (JSON.parse(fs.readFileSync(e2eStateFile, 'utf8')) as { tileOrigin: string }).tileOrigin
}

async function openJob(page: Page, projectId: number, name: string) {
  await page.goto(`/dashboard?project=${projectId}`)
  const job = page.getByTestId('job-dialog')
  await expect(job.getByRole('heading', { name })).toBeVisible()
  await expect(job.locator('[data-upload-widget][data-ready="true"]').first()).toBeAttached()
  return job
}

test('a pilot saves a job for offline and reads it with no signal after a reload', async ({
  page,
  context,
}, testInfo) => {
  const name = `Offline orchard ${crypto.randomBytes(3).toString('hex')}`
  const { projectId } = seedAssignedJob(name)
  // Not the shared session: this journey signs out at the end.
  await signIn(page, PILOT_EMAIL, DEMO_PASSWORD, { ownSession: true })
  const job = await openJob(page, projectId, name)
  await expect(job.getByTestId('job-map').locator('img.leaflet-tile-loaded').first()).toBeVisible()

  // The pilot flies: the mission page and every mission file, the drone's own first.
  const mission = job.getByTestId('job-mission')
  await expect(mission).toContainText('Planned for the DJI Mavic 3 Enterprise (M3E).')
  await expect(mission.getByRole('link', { name: 'Open survey mission' })).toHaveAttribute(
    'href',
    `/projects/${projectId}/survey`,
  )
  const files = mission.getByRole('list', { name: 'Mission files' }).getByRole('link')
  await expect(files).toHaveText([
    'DJI Pilot 2 (.kmz) (for this drone)',
    'QGroundControl (.plan)',
    'Litchi (.csv)',
    'KML',
    'GeoJSON',
  ])
  for (const format of ['kmz', 'plan', 'litchi.csv', 'kml', 'geojson']) {
    await expect(mission.locator(`a[href="/api/projects/${projectId}/export/${format}"]`)).toHaveCount(1)
  }
  await mission.screenshot({ path: testInfo.outputPath('job-mission.png') })

  const control = job.getByTestId('offline-control')
  await expect(control.getByText('Not saved on this device')).toBeVisible()
  await control.getByRole('button', { name: 'Save for offline' }).click()
  await expect(control.getByText(/^Available offline — saved \d/)).toBeVisible({ timeout: 60_000 })
  await expect(control).toContainText(/mission file and \d+ map tiles \(zoom 12–1[5-8]/)

  await context.setOffline(true)
  await page.reload()
  await expect(page.getByText('You are offline')).toBeVisible()
  const offline = page.getByTestId('job-dialog')
  await expect(offline.getByRole('heading', { name })).toBeVisible()
  await expect(offline.getByText('Carla Customer')).toBeVisible()
  await expect(offline.getByText('Stellenbosch, Western Cape').first()).toBeVisible()
  await expect(offline.getByTestId('job-areas')).toContainText('Area 1: 30')
  await expect(offline.getByText(/^Available offline — saved/)).toBeVisible()
  // The map draws saved tiles (nothing else could answer them now).
  await expect(offline.getByTestId('job-map').locator('img.leaflet-tile-loaded').first()).toBeVisible()
  // The flight plan downloads come from the pack.
  const plans = await page.evaluate(async (id) => {
    const kml = await fetch(`/api/projects/${id}/flight-plan/kml`)
    const geojson = await fetch(`/api/projects/${id}/flight-plan/geojson`)
    return { kml: [kml.status, await kml.text()], geojson: [geojson.status, await geojson.text()] }
  }, projectId)
  expect(plans.kml[0]).toBe(200)
  expect(plans.kml[1]).toContain('<kml')
  expect(plans.geojson[0]).toBe(200)
  expect(JSON.parse(String(plans.geojson[1])).type).toBe('FeatureCollection')
  // So does the mission file the job's drone flies from (DJI Pilot 2's KMZ, a zip).
  const kmz = await page.evaluate(async (id) => {
    const res = await fetch(`/api/projects/${id}/export/kmz`)
    return { status: res.status, head: [...new Uint8Array(await res.arrayBuffer()).slice(0, 2)] }
  }, projectId)
  expect(kmz).toEqual({ status: 200, head: [0x50, 0x4b] })
  // The job list (closing the dialog) is in the pack too.
  await offline.getByRole('link', { name: 'Close dialog' }).click()
  await expect(page.getByTestId(`pilot-project-${projectId}`)).toBeVisible()

  // Proof the worker is really cut off: a job page that was never saved does not load.
  const unsaved = await page.evaluate(async () => {
    try {
      await fetch('/dashboard?project=987654')
      return 'network'
    } catch {
      return 'failed'
    }
  })
  expect(unsaved).toBe('failed')

  // Back online, the network wins again (fresh data) and signing out drops the pack.
  await context.setOffline(false)
  await page.goto('/dashboard?tab=projects')
  await expect(page.getByText('You are offline')).toBeHidden()
  await page.getByRole('button', { name: 'Logout' }).first().click()
  await expect(page).toHaveURL(/\/$/)
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBe(0)
})

test('a save ends when the tile host is out of reach, and the card agrees after an offline reload', async ({
  page,
  context,
}) => {
  const name = `No tiles ${crypto.randomBytes(3).toString('hex')}`
  const { projectId } = seedAssignedJob(name)
  // The tile host black-holes every request: each tile would wait for ever.
  await setTileServerMode(tileOrigin(), 'hang')
  try {
    await signIn(page, PILOT_EMAIL, DEMO_PASSWORD)
    const job = await openJob(page, projectId, name)
    const control = job.getByTestId('offline-control')
    await control.getByRole('button', { name: 'Save for offline' }).click()
    await expect(control.getByText(/^Available offline — saved \d/)).toBeVisible({ timeout: 90_000 })
    await expect(control).toContainText(/Saved — map tiles: 0 of \d+ could be fetched\./)
    await expect(control.getByRole('button', { name: 'Update offline copy' })).toBeEnabled()

    await context.setOffline(true)
    await page.reload()
    await expect(page.getByText('Showing the jobs saved on this device')).toBeVisible()
    const offline = page.getByTestId('job-dialog')
    await expect(offline.getByRole('heading', { name })).toBeVisible()
    await expect(offline.getByText(/^Available offline — saved/)).toBeVisible()
    await expect(offline.getByText('Not saved on this device')).toBeHidden()
    await expect(offline.getByTestId('offline-control')).toContainText(
      /Saved — map tiles: 0 of \d+ could be fetched/,
    )
    const kmz = await page.evaluate(
      async (id) => (await fetch(`/api/projects/${id}/export/kmz`)).status,
      projectId,
    )
    expect(kmz).toBe(200)
  } finally {
    await context.setOffline(false)
    await setTileServerMode(tileOrigin(), 'ok')
  }
})

test('a photo picked with no signal waits as queued and uploads when the signal returns', async ({
  page,
  context,
}) => {
  const name = `Queued upload ${crypto.randomBytes(3).toString('hex')}`
  const { projectId } = seedAssignedJob(name)
  await signIn(page, PILOT_EMAIL, DEMO_PASSWORD)
  const job = await openJob(page, projectId, name)
  const media = job.getByTestId('job-media')

  await context.setOffline(true)
  await media
    .getByLabel('Upload photos')
    .setInputFiles({ name: 'DJI_0101.png', mimeType: 'image/png', buffer: PNG })
  const item = media.getByRole('list', { name: 'Uploads' }).getByRole('listitem')
  await expect(item).toContainText('Queued — waiting for signal')
  await expect(item).toContainText('Kept on this device')
  expect(await keptUploads(page)).toBe(1)

  await context.setOffline(false)
  await expectToast(page, 'Upload successful')
  await expect(item).toContainText('Completed')
  await expect(media.getByRole('link', { name: 'DJI_0101.png' })).toBeVisible()
  expect(storedFile(projectId, 'DJI_0101.png')?.size).toBe(PNG.length)
  // The kept copy is gone once the server has the file.
  await expect.poll(() => keptUploads(page)).toBe(0)
})

test('an upload cut by a reload continues by itself and sends only the missing bytes', async ({ page }) => {
  const name = `Resumed upload ${crypto.randomBytes(3).toString('hex')}`
  const { projectId } = seedAssignedJob(name)
  await signIn(page, PILOT_EMAIL, DEMO_PASSWORD)
  const job = await openJob(page, projectId, name)
  const media = job.getByTestId('job-media')
  // A 12 MB PNG (header, then padding): three 5 MB PATCHes.
  const bytes = Buffer.concat([PNG, crypto.randomBytes(12 * 1024 * 1024)])
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex')

  // Slow the uplink so the reload lands in the middle.
  const uplink = await slowUplink(page, 512 * 1024)

  const patches: Array<{ offset: number; phase: 'before' | 'after'; body: Promise<number> }> = []
  const heads: number[] = []
  let phase: 'before' | 'after' = 'before'
  page.on('request', (req) => {
    if (req.method() === 'PATCH' && req.url().includes('/api/tus/')) {
      patches.push({
        offset: Number(req.headers()['upload-offset']),
        phase,
        // The body's length as sent (the trace keeps no copy of a Blob body).
        body: req
          .response()
          .then(() => req.allHeaders())
          .then((h) => Number(h['content-length'] ?? -1))
          .catch(() => -1),
      })
    }
  })
  page.on('response', (res) => {
    if (res.request().method() === 'HEAD' && res.url().includes('/api/tus/'))
      heads.push(Number(res.headers()['upload-offset']))
  })

  const earlier = tusUploadsOnDisk()
  await media
    .getByLabel('Upload photos')
    .setInputFiles({ name: 'DJI_0200.png', mimeType: 'image/png', buffer: bytes })
  // Storing 12 MB in IndexedDB takes a while on a busy machine.
  await expect(media.getByText('Kept on this device')).toBeVisible({ timeout: 60_000 })
  // The server holds at least one whole chunk before the page goes.
  await expect
    .poll(() => tusBytesOnDisk(earlier), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(5 * 1024 * 1024)

  // Requests of the reloaded page count as 'after' (a PATCH still in flight before it does not).
  page.once('framenavigated', () => (phase = 'after'))
  await page.reload()
  await uplink.fullSpeed()
  // Nothing is picked again: the kept file continues on its own.
  const uploads = page.getByTestId('job-media').getByRole('list', { name: 'Uploads' })
  await expect(uploads).toContainText('DJI_0200.png')
  await expect(uploads).toContainText('Completed', { timeout: 120_000 })
  await expect(page.getByTestId('job-media').getByRole('link', { name: 'DJI_0200.png' })).toBeVisible()

  const stored = storedFile(projectId, 'DJI_0200.png')
  expect(stored).toEqual({ sha256, size: bytes.length })
  const resumedAt = heads.at(-1) ?? 0
  expect(resumedAt).toBeGreaterThanOrEqual(5 * 1024 * 1024)
  expect(resumedAt).toBeLessThan(bytes.length)
  const after = patches.filter((p) => p.phase === 'after')
  expect(after[0]?.offset).toBe(resumedAt)
  const sentAfter = (await Promise.all(after.map((p) => p.body))).reduce((a, b) => a + b, 0)
  expect(sentAfter).toBe(bytes.length - resumedAt)
  await expect.poll(() => keptUploads(page)).toBe(0)
})
