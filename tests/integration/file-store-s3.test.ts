/**
 * FILE_STORE=s3 against a real S3-protocol server (s3rver) in this process: stored files
 * become safe objects, the cache evicts them and reads come back from the bucket, deletes
 * reach the bucket, an unreachable bucket is retried, and a killed process resumes. A processing
 * job's 3D Tiles (many files in one folder) go the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { systemHealth } from '#app/domain/admin/health.server.ts'
import { deleteProjectFile, storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { jobFolder, storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { importAllZip } from '#app/domain/processing/import.server.ts'
import { publishJobOutputs } from '#app/domain/processing/job-outputs.server.ts'
import { createShareLink } from '#app/domain/sharing/share-links.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import {
  cacheUsage,
  ensureLocalFile,
  evictCache,
  readStoredFile,
  withLocalFile,
} from '#app/lib/storage/file-cache.server.ts'
import { startFileStore } from '#app/lib/storage/file-store.server.ts'
import { queueStoredFile, reconcileOutbox, unsafeFilesSummary } from '#app/lib/storage/outbox.server.ts'
import { objectStore } from '#app/lib/storage/s3-client.server.ts'
import { restoreFromBucket, verifyBucket } from '#app/lib/storage/verify-restore.server.ts'
import * as downloadRoute from '#app/routes/api.download-file.$id.ts'
import * as tilesRoute from '#app/routes/api.projects.$id.3d-tiles.$jobId.$.ts'
import * as viewRoute from '#app/routes/api.projects.$id.deliverables.$fileId.view.$which.ts'
import * as shareViewRoute from '#app/routes/s.$token_.files.$fileId_.view.$variant.ts'
import { deliverableViews, processingJobs, projectFiles, storedObjects } from '#db/schema.ts'
import { projectWithTeam, signedInUser } from '#tests/factories.ts'
import { FAST_FILE_STORE, withBucketFileStore } from '#tests/helpers/bucket-file-store.ts'
import { PNG_BYTES } from '#tests/helpers/files.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { writeZip, type ZipEntrySpec } from '#tests/helpers/zip-builder.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'

// The deliverable pipeline plugs into the files service as the server loads it (viewing copies, their removal).
import '#app/domain/deliverables/pipeline.server.ts'

const s3 = withBucketFileStore()

const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex')

/** A PDF by its magic bytes, random after them (so a wrong range cannot pass by chance). */
function pdfLike(size: number) {
  const bytes = crypto.randomBytes(size)
  Buffer.from('%PDF-1.7\n').copy(bytes)
  return bytes
}

async function storeDocument(admin: { id: number; role: 'admin' }, projectId: number, bytes: Buffer) {
  return storeProjectFile({
    user: admin,
    projectId,
    category: 'project_document',
    originalName: `survey-${crypto.randomUUID()}.pdf`,
    source: Readable.from([bytes]),
  })
}

function rowOf(key: string) {
  return getDb().select().from(storedObjects).where(eq(storedObjects.key, key)).get()
}

function keyOfFile(id: number) {
  return getDb().select().from(projectFiles).where(eq(projectFiles.id, id)).get()!.fileName
}

async function bucketKeys() {
  const keys: string[] = []
  for await (const item of objectStore().list()) keys.push(item.key)
  return keys.sort()
}

/** Evicts everything safe (as if it were read long ago and the cache were full). */
const evictAll = () => evictCache({ maxBytes: 0, now: Date.now() + 24 * 60 * 60 * 1000 })

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** Evicts until these files are gone (a stream closes a moment after its last byte was read). */
async function evictedOnceClosed(files: string[]) {
  const deadline = Date.now() + 5000
  for (;;) {
    await evictCache({ maxBytes: 0 })
    if (!files.some((f) => fs.existsSync(f))) return
    if (Date.now() > deadline) throw new Error('Timed out waiting for the files to be evicted')
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('stored files in the bucket', () => {
  it('an upload becomes a safe object with our SHA-256; evicted, it downloads byte-identical, by range too', async () => {
    const { admin, project } = await projectWithTeam()
    const bytes = pdfLike(300_000)
    const file = await storeDocument({ id: admin.user.id, role: 'admin' }, project.id, bytes)
    const key = keyOfFile(file.id)
    expect(rowOf(key)).toMatchObject({ state: 'pending', sha256: sha(bytes), size: bytes.length })

    await s3.store.idle()
    expect(rowOf(key)).toMatchObject({ state: 'safe', attempts: 0, lastError: null })
    expect(await objectStore().head(key)).toMatchObject({ size: bytes.length, sha256: sha(bytes) })
    expect(await objectStore().hashObject(key)).toEqual({ sha256: sha(bytes), size: bytes.length })

    const local = path.join(storagePaths().root, key)
    expect((await evictAll()).files).toBeGreaterThanOrEqual(1)
    expect(fs.existsSync(local)).toBe(false)
    expect(rowOf(key)?.evictedAt).toBeInstanceOf(Date)

    const url = `/api/download-file/${file.id}`
    const opts = (headers: Record<string, string> = {}) => ({
      headers: { ...admin.headers, ...headers },
      params: { id: String(file.id) },
    })
    const whole = await callRoute(downloadRoute.loader, url, opts())
    expect(whole.status).toBe(200)
    expect(whole.headers.get('ETag')).toBe(`"${sha(bytes)}"`)
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true)

    const part = await callRoute(downloadRoute.loader, url, opts({ Range: 'bytes=123456-200000' }))
    expect(part.status).toBe(206)
    expect(part.headers.get('Content-Range')).toBe(`bytes 123456-200000/${bytes.length}`)
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(123456, 200001))).toBe(true)
    const tail = await callRoute(downloadRoute.loader, url, opts({ Range: 'bytes=-10' }))
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(-10))).toBe(true)
    const same = await callRoute(downloadRoute.loader, url, opts({ 'If-None-Match': `"${sha(bytes)}"` }))
    expect(same.status).toBe(304)
    // Served by range, nothing was cached; a GDAL job's read fetches it back, checked.
    expect(fs.existsSync(local)).toBe(false)
    await ensureLocalFile(local)
    expect(fs.readFileSync(local).equals(bytes)).toBe(true)
    expect(rowOf(key)?.evictedAt).toBeNull()
  })

  it('a viewing copy is served from the bucket once evicted (or by a presigned URL); deleting the file deletes its objects', async () => {
    const { admin, project } = await projectWithTeam()
    const tiff = await storeDocument({ id: admin.user.id, role: 'admin' }, project.id, pdfLike(2000))
    // A ready viewing copy as the view job leaves it (its GDAL work is tested in view-jobs).
    const previewKey = `views/${tiff.id}/preview.png`
    fs.mkdirSync(path.join(storagePaths().views, String(tiff.id)), { recursive: true })
    fs.writeFileSync(path.join(storagePaths().root, previewKey), PNG_BYTES)
    getDb()
      .insert(deliverableViews)
      .values({
        fileId: tiff.id,
        status: 'ready',
        previewName: previewKey,
        cogName: `views/${tiff.id}/cog.tif`,
        finishedAt: new Date(),
      })
      .run()
    getDb()
      .update(projectFiles)
      .set({ fileCategory: 'processed_deliverable', fileType: 'image/tiff' })
      .where(eq(projectFiles.id, tiff.id))
      .run()
    queueStoredFile(previewKey, { size: PNG_BYTES.length })
    await s3.store.idle()
    expect(rowOf(previewKey)).toMatchObject({ state: 'safe', sha256: sha(PNG_BYTES) })
    await evictAll()
    expect(fs.existsSync(path.join(storagePaths().root, previewKey))).toBe(false)

    const res = await callRoute(
      viewRoute.loader,
      `/api/projects/${project.id}/deliverables/${tiff.id}/view/preview`,
      {
        headers: admin.headers,
        params: { id: String(project.id), fileId: String(tiff.id), which: 'preview' },
      },
    )
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_BYTES)).toBe(true)

    // With S3_PRESIGNED_VIEWS the browser is sent to the bucket, after Kestrel's access check.
    process.env.S3_PRESIGNED_VIEWS = 'true'
    resetEnvCache()
    try {
      const view = (headers: Record<string, string>) =>
        callRoute(viewRoute.loader, `/api/projects/${project.id}/deliverables/${tiff.id}/view/preview`, {
          headers,
          params: { id: String(project.id), fileId: String(tiff.id), which: 'preview' },
        })
      const stranger = await signedInUser('client')
      expect((await view(stranger.headers)).status).toBe(404)
      const redirected = await view(admin.headers)
      expect(redirected.status).toBe(302)
      expect(redirected.headers.get('Cache-Control')).toBe('no-store')
      const location = redirected.headers.get('Location')!
      expect(location.startsWith(`${s3.bucket.endpoint}/`)).toBe(true)
      expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('300')
      const ranged = await fetch(location, { headers: { Range: 'bytes=8-23' } })
      expect(ranged.status).toBe(206)
      expect(ranged.headers.get('Content-Type')).toBe('image/png')
      expect(Buffer.from(await ranged.arrayBuffer()).equals(PNG_BYTES.subarray(8, 24))).toBe(true)
      // Through a share link the URL lives 60 s: a revoked link's copies stop soon after.
      const link = createShareLink({ id: admin.user.id, role: 'admin' }, project.id, { allowDownload: false })
      const token = link.url.split('/s/')[1]!
      const shared = await callRoute(shareViewRoute.loader, `/s/${token}/files/${tiff.id}/view/preview`, {
        params: { token, fileId: String(tiff.id), variant: 'preview' },
        context: { clientIp: '198.51.100.77' },
      })
      expect(shared.status).toBe(302)
      expect(new URL(shared.headers.get('Location')!).searchParams.get('X-Amz-Expires')).toBe('60')
      // A copy still on DATA_DIR is served by Kestrel itself.
      await ensureLocalFile(path.join(storagePaths().root, previewKey))
      expect((await view(admin.headers)).status).toBe(200)
    } finally {
      delete process.env.S3_PRESIGNED_VIEWS
      resetEnvCache()
    }

    const originalKey = keyOfFile(tiff.id)
    expect(await bucketKeys()).toEqual(expect.arrayContaining([originalKey, previewKey]))
    await deleteProjectFile({ id: admin.user.id, role: 'admin' }, tiff.id)
    await s3.store.idle()
    expect(await objectStore().head(originalKey)).toBeNull()
    expect(await objectStore().head(previewKey)).toBeNull()
    expect(rowOf(originalKey)).toBeUndefined()
    expect(rowOf(previewKey)).toBeUndefined()
  })

  it(
    'while the bucket is unreachable the outbox retries; afterwards every file is safe, once',
    { timeout: 60_000 },
    async () => {
      const { admin, project } = await projectWithTeam()
      const before = await bucketKeys()
      await s3.bucket.stop()
      const files = []
      for (let i = 0; i < 4; i++)
        files.push(await storeDocument({ id: admin.user.id, role: 'admin' }, project.id, pdfLike(50_000 + i)))
      const keys = files.map((f) => keyOfFile(f.id))
      await waitFor('failed attempts', () => keys.every((k) => (rowOf(k)?.attempts ?? 0) >= 2))
      expect(unsafeFilesSummary()).toMatchObject({ count: 4, failing: 4 })
      // The admin sees them on the Settings tab's health panel.
      const panel = (await systemHealth()).checks.find((c) => c.id === 'files')
      expect(panel).toMatchObject({
        state: 'warning',
        summary: expect.stringMatching(/^4 files \(.+\) not yet safe in the bucket/),
      })
      expect(panel?.detail).toMatch(/ECONNREFUSED/)
      expect(keys.map((k) => rowOf(k)?.state)).toEqual(['pending', 'pending', 'pending', 'pending'])

      await s3.bucket.restart()
      await waitFor('all safe', () => keys.every((k) => rowOf(k)?.state === 'safe'))
      expect(unsafeFilesSummary().count).toBe(0)
      expect((await systemHealth()).checks.find((c) => c.id === 'files')).toMatchObject({
        state: 'ok',
        summary: 'Every stored file is safe in the bucket',
      })
      expect(await bucketKeys()).toEqual([...before, ...keys].sort())
      for (const [i, key] of keys.entries()) {
        expect((await objectStore().head(key))?.sha256).toBe(files[i]!.sha256)
      }
    },
  )

  it('the cache limit is a limit: files read a moment ago go, never one open right now; health says when it is over', async () => {
    const { admin, project } = await projectWithTeam()
    const docs: Awaited<ReturnType<typeof storeDocument>>[] = []
    for (let i = 0; i < 3; i++)
      docs.push(await storeDocument({ id: admin.user.id, role: 'admin' }, project.id, pdfLike(400_000 + i)))
    await s3.store.idle()
    const locals = docs.map((d) => path.join(storagePaths().root, keyOfFile(d.id)))
    const download = (i: number) =>
      callRoute(downloadRoute.loader, `/api/download-file/${docs[i]!.id}`, {
        headers: admin.headers,
        params: { id: String(docs[i]!.id) },
      })
    // Each read just now (a quarter of an hour used to keep them all, whatever the limit said).
    for (const i of [0, 1, 2]) expect((await (await download(i)).arrayBuffer()).byteLength).toBe(400_000 + i)
    await evictedOnceClosed(locals)

    // A file a reader holds stays; it goes once the reader is done.
    await withLocalFile(locals[0]!, async (local) => {
      await evictCache({ maxBytes: 0 })
      expect(fs.readFileSync(local).length).toBe(400_000)
    })
    await evictCache({ maxBytes: 0 })
    expect(fs.existsSync(locals[0]!)).toBe(false)

    // A download answering from the disk holds its file until its stream closes.
    await readStoredFile(locals[1]!)
    const answer = await download(1)
    await evictCache({ maxBytes: 0 })
    expect(fs.existsSync(locals[1]!)).toBe(true)
    expect((await answer.arrayBuffer()).byteLength).toBe(400_001)
    await evictedOnceClosed([locals[1]!])

    // Over the limit with every file open: the panel says so, and is green again after.
    process.env.FILE_CACHE_MAX_GB = String(1 / 1024)
    resetEnvCache()
    try {
      const filesPanel = async () => (await systemHealth()).checks.find((c) => c.id === 'files')
      await withLocalFile(locals[0]!, () =>
        withLocalFile(locals[1]!, () =>
          withLocalFile(locals[2]!, async () => {
            await evictCache()
            expect(cacheUsage()).toMatchObject({ over: true })
            const panel = await filesPanel()
            expect(panel).toMatchObject({
              state: 'warning',
              summary: expect.stringMatching(/^Cache over its limit: .+ of 1,0\u00a0MB$/),
            })
            expect(panel?.detail).toMatch(/over its limit \(FILE_CACHE_MAX_GB\)/)
          }),
        ),
      )
      await evictCache()
      expect(cacheUsage().over).toBe(false)
      expect(await filesPanel()).toMatchObject({ state: 'ok' })
    } finally {
      delete process.env.FILE_CACHE_MAX_GB
      resetEnvCache()
    }
  })

  it('`files verify` lists what the bucket lacks or holds differently; `files restore` rebuilds DATA_DIR', async () => {
    const { admin, project } = await projectWithTeam()
    const files = [
      await storeDocument({ id: admin.user.id, role: 'admin' }, project.id, pdfLike(70_000)),
      await storeDocument({ id: admin.user.id, role: 'admin' }, project.id, pdfLike(80_000)),
    ]
    await s3.store.idle()
    const [first, second] = files.map((f) => keyOfFile(f.id)) as [string, string]
    expect((await verifyBucket()).problems).toEqual([])

    // The volume is lost: DATA_DIR's files are gone, the database is still there.
    fs.rmSync(storagePaths().projects, { recursive: true, force: true })
    const restored = await restoreFromBucket({ log: () => {} })
    expect(restored.restored).toBeGreaterThanOrEqual(2)
    for (const file of files) {
      const bytes = fs.readFileSync(path.join(storagePaths().root, keyOfFile(file.id)))
      expect(sha(bytes)).toBe(file.sha256)
    }

    await objectStore().remove(first)
    const other = path.join(storagePaths().tmp, 'other.pdf')
    fs.mkdirSync(storagePaths().tmp, { recursive: true })
    fs.writeFileSync(other, pdfLike(80_000))
    await objectStore().putFile(second, other, { sha256: sha(fs.readFileSync(other)) })
    const { problems } = await verifyBucket()
    expect(problems).toEqual([
      { key: first, problem: 'missing' },
      { key: second, problem: 'different', detail: `SHA-256 ${sha(fs.readFileSync(other))}` },
    ])
    // Put back as they were, for the tests after this one.
    await deleteProjectFile({ id: admin.user.id, role: 'admin' }, files[0]!.id)
    await deleteProjectFile({ id: admin.user.id, role: 'admin' }, files[1]!.id)
    await s3.store.idle()
  })

  it('a processing job’s 3D Tiles go through the outbox: safe, evicted, read back by range, kept at a restart', async () => {
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    const job = getDb()
      .insert(processingJobs)
      .values({ projectId: project.id, preset: 'standard', options: {}, status: 'importing' })
      .returning()
      .get()
    const tileset = Buffer.from('{"asset":{"version":"1.0"},"root":{"content":{"uri":"t0.b3dm"}}}')
    const tile = crypto.randomBytes(40_000)
    const zipPath = path.join(jobFolder(job.id), 'all.zip')
    fs.mkdirSync(path.dirname(zipPath), { recursive: true })
    /** The job's all.zip (a report and `tiles`), imported as the runner does. */
    const importArchive = async (tiles: ZipEntrySpec[]) => {
      await writeZip(zipPath, [
        { name: 'odm_report/report.pdf', data: Buffer.from('%PDF-1.4\n%%EOF\n') },
        ...tiles,
      ])
      await importAllZip({
        jobId: job.id,
        projectId: project.id,
        adminId: admin.user.id,
        zipPath,
        limits: { maxUnzippedBytes: 10 * 1024 ** 2, maxEntries: 100 },
      })
    }
    await importArchive([
      { name: '3d_tiles/model/tileset.json', data: tileset },
      { name: '3d_tiles/model/t0.b3dm', data: tile },
    ])
    getDb().update(processingJobs).set({ status: 'completed' }).where(eq(processingJobs.id, job.id)).run()
    // Its outputs (a report: no viewing copy to wait for) become the project's deliverables.
    expect(await publishJobOutputs(job.id)).toEqual({ published: true, replaced: 0 })
    const keys = [
      `processing/${job.id}/3d_tiles/model/t0.b3dm`,
      `processing/${job.id}/3d_tiles/model/tileset.json`,
    ]
    await s3.store.idle()
    for (const [key, bytes] of [[keys[0]!, tile] as const, [keys[1]!, tileset] as const]) {
      expect(rowOf(key)).toMatchObject({ state: 'safe', sha256: sha(bytes), size: bytes.length })
      expect(await objectStore().head(key)).toMatchObject({ sha256: sha(bytes) })
    }

    await evictAll()
    expect(keys.some((key) => fs.existsSync(path.join(storagePaths().root, key)))).toBe(false)
    const read = (rest: string, headers: Record<string, string> = {}) =>
      callRoute(tilesRoute.loader, `/api/projects/${project.id}/3d-tiles/${job.id}/${rest}`, {
        headers: { ...admin.headers, ...headers },
        params: { id: String(project.id), jobId: String(job.id), '*': rest },
      })
    const json = await read('model/tileset.json')
    expect(json.status).toBe(200)
    expect(Buffer.from(await json.arrayBuffer()).equals(tileset)).toBe(true)
    const part = await read('model/t0.b3dm', { Range: 'bytes=1000-1999' })
    expect(part.status).toBe(206)
    expect(Buffer.from(await part.arrayBuffer()).equals(tile.subarray(1000, 2000))).toBe(true)

    // A restart's reconciliation keeps them (evicted, they are on no disk); verify checks them.
    expect((await reconcileOutbox()).deleting).toBe(0)
    expect(keys.map((key) => rowOf(key)?.state)).toEqual(['safe', 'safe'])
    await objectStore().remove(keys[0]!)
    expect((await verifyBucket()).problems).toEqual([{ key: keys[0], problem: 'missing' }])
    // Imported again, the job's tiles replace the last run's objects, the bucket's copy too.
    getDb().update(processingJobs).set({ status: 'importing' }).where(eq(processingJobs.id, job.id)).run()
    await importArchive([{ name: '3d_tiles/tileset.json', data: tileset }])
    await s3.store.idle()
    expect(keys.map((key) => rowOf(key))).toEqual([undefined, undefined])
    expect(await objectStore().head(keys[1]!)).toBeNull()
    expect(rowOf(`processing/${job.id}/3d_tiles/tileset.json`)?.state).toBe('safe')
  })

  it('killed with -9 while copying ten files, the next process makes all ten safe', async () => {
    const { admin, project } = await projectWithTeam()
    // Queued with the worker stopped, as a server that had not got round to them.
    await s3.store.stop()
    const files = []
    for (let i = 0; i < 10; i++)
      files.push(
        await storeDocument({ id: admin.user.id, role: 'admin' }, project.id, pdfLike(1_000_000 + i)),
      )
    const keys = files.map((f) => keyOfFile(f.id))
    const safeCount = () => keys.filter((k) => rowOf(k)?.state === 'safe').length

    const first = startChild()
    await waitFor('the first file safe', () => safeCount() >= 1, 30_000)
    first.kill('SIGKILL')
    await new Promise((r) => first.once('exit', r))
    expect(safeCount()).toBeLessThan(10)

    // The restarted server: this process, on the same database, DATA_DIR and bucket.
    s3.store = await startFileStore(FAST_FILE_STORE)
    await waitFor('all ten safe', () => safeCount() === 10, 30_000)
    for (const [i, key] of keys.entries()) {
      expect(await objectStore().hashObject(key)).toEqual({
        sha256: files[i]!.sha256,
        size: files[i]!.fileSize,
      })
    }
  }, 60_000)
})

/** The outbox worker in a child process on the same database, DATA_DIR and bucket. */
function startChild(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/file-store-worker.ts'], {
    env: { ...process.env, ...s3.bucket.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}
