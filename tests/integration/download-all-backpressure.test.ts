/**
 * "Download all" under a slow reader (issue 24): the ZIP is made only as fast as it is read,
 * the work stops and its file is closed when the reader goes, and a link or an account can
 * build only a few at once. The bench (`bench/download-all.bench.ts`) measures RSS over 30 s.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { runningZips } from '#app/domain/sharing/deliverables-zip.server.ts'
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as downloadAllRoute from '#app/routes/api.projects.$id.download-all.ts'
import * as shareDownloadAllRoute from '#app/routes/s.$token_.download-all.ts'
import { shareLinks } from '#db/schema.ts'
import { deliveredProject, storeDeliverable } from '#tests/factories.ts'
import { httpAppForFile } from '#tests/helpers/http-app.ts'
import { readThenPause } from '#tests/helpers/paused-reader.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const MiB = 1024 * 1024
/** Three 16 MiB deliverables: a 48 MiB ZIP. */
const FILE_BYTES = 16 * MiB

const app = httpAppForFile()

/** A completed project whose deliverables add up to tens of MiB of noise (stored, not deflated). */
async function bigDelivery() {
  const setting = await deliveredProject()
  const admin = { id: setting.admin.user.id, role: 'admin' as const }
  for (const name of ['Orthomosaic.mp4', 'DSM.mp4', 'Flyover 2.mp4']) {
    const bytes = crypto.randomBytes(FILE_BYTES)
    // An MP4 header, so the content check takes it as video.
    Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 0, 0, 0, 0]).copy(bytes)
    await storeDeliverable(admin, setting.project.id, name, bytes)
  }
  return setting
}

/** The files of the store this process has open. */
function openStoredFiles() {
  const root = storagePaths().root
  const open: string[] = []
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`)
      if (target.startsWith(root)) open.push(target)
    } catch {
      // closed while we looked
    }
  }
  return open
}

/** The bytes the one running ZIP has made, once they stop growing (nothing more is read). */
async function producedWhenSettled() {
  let last = -1
  let stableSince = Date.now()
  const deadline = Date.now() + 10_000
  for (;;) {
    const zips = runningZips()
    expect(zips).toHaveLength(1)
    const now = zips[0]!.bytesProduced
    if (now !== last) {
      last = now
      stableSince = Date.now()
    } else if (Date.now() - stableSince >= 400) return now
    if (Date.now() > deadline) throw new Error(`the ZIP kept growing: ${now} bytes`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 5_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

function linkRow(id: number) {
  return getDb().select().from(shareLinks).where(eq(shareLinks.id, id)).get()!
}

function downloadAll(projectId: number, headers: Record<string, string>) {
  return callRoute(downloadAllRoute.loader, `/api/projects/${projectId}/download-all`, {
    headers,
    params: { id: String(projectId) },
  })
}

describe('download all with a slow reader', () => {
  test('a reader that stops: the archive stops within a few MiB of what was read; the rest then arrives whole; cancelling frees the file', async () => {
    const { client, project } = await bigDelivery()
    const res = await downloadAll(project.id, client.headers)
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let read = 0
    while (read < MiB) read += (await reader.read()).value!.length
    const produced = await producedWhenSettled()
    expect(produced - read).toBeLessThan(2 * MiB)

    // Reading on takes the whole ZIP.
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      read += value.length
    }
    expect(read).toBeGreaterThan(3 * FILE_BYTES)
    expect(runningZips()).toEqual([])
    // The last file's read stream closes just after its bytes are taken (fs closes asynchronously).
    await until(() => openStoredFiles().length === 0, 'the last file closed')

    // A reader that cancels midway stops the work and closes the file it was reading.
    const again = (await downloadAll(project.id, client.headers)).body!.getReader()
    await again.read()
    await producedWhenSettled()
    expect(openStoredFiles()).toHaveLength(1)
    await again.cancel()
    expect(runningZips()).toEqual([])
    await until(() => openStoredFiles().length === 0, 'the file closed')
  })

  test('over HTTP: a client that pauses holds the server to a few MiB beyond what it took; when it disconnects the work stops and the file is closed', async () => {
    const { client, project } = await bigDelivery()
    const url = new URL(`/api/projects/${project.id}/download-all`, app.base)
    const { req, res } = await new Promise<{ req: http.ClientRequest; res: http.IncomingMessage }>(
      (resolve, reject) => {
        const req = http.get(url, { headers: client.headers }, (res) => resolve({ req, res }))
        req.on('error', reject)
      },
    )
    expect(res.statusCode).toBe(200)
    const read = await readThenPause(res, MiB)
    const produced = await producedWhenSettled()
    // What the two sockets' buffers hold on loopback, plus the archive's own few hundred KiB.
    expect(produced - read).toBeLessThan(12 * MiB)
    expect(produced).toBeLessThan(3 * FILE_BYTES)
    expect(openStoredFiles()).toHaveLength(1)

    req.destroy()
    await until(() => runningZips().length === 0, 'the ZIP to stop')
    await until(() => openStoredFiles().length === 0, 'the file to close')
  })
})

describe('how many ZIPs at once', () => {
  test('an account builds two at once: a third is 429 with the reason; when one ends the next may start', async () => {
    const { client, project } = await deliveredProject()
    const first = await downloadAll(project.id, client.headers)
    const second = await downloadAll(project.id, client.headers)
    expect([first.status, second.status]).toEqual([200, 200])
    const third = await downloadAll(project.id, client.headers)
    expect(third.status).toBe(429)
    expect(third.headers.get('Retry-After')).toBe('60')
    expect(await readJson(third)).toEqual({
      error: 'You already have 2 downloads of deliverables running. Please let one finish, then try again.',
    })
    await first.body!.cancel()
    const fourth = await downloadAll(project.id, client.headers)
    expect(fourth.status).toBe(200)
    await second.arrayBuffer()
    await fourth.arrayBuffer()
    expect(runningZips()).toEqual([])
  })

  test('a share link builds three at once (no account needed): a fourth is 429 and not counted as a download', async () => {
    const { client, project } = await deliveredProject()
    const created = createShareLink({ id: client.user.id, role: 'client' }, project.id, {
      allowDownload: true,
    })
    const token = created.url.split('/').pop()!
    const download = (n: number) =>
      callRoute(shareDownloadAllRoute.loader, `/s/${token}/download-all`, {
        params: { token },
        context: { clientIp: `198.51.100.${n}` },
      })
    const running = [await download(1), await download(2), await download(3)]
    expect(running.map((r) => r.status)).toEqual([200, 200, 200])
    const refused = await download(4)
    expect(refused.status).toBe(429)
    expect(await readJson(refused)).toEqual({
      error:
        "This link's deliverables are already being downloaded 3 times at once. Please try again when one has finished.",
    })
    expect(linkRow(created.id).downloadCount).toBe(3)
    for (const res of running) await res.body!.cancel()
    expect(runningZips()).toEqual([])
    expect((await download(5)).status).toBe(200)
  })
})
