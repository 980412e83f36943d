/**
 * The simulator's fault switches (given at start or switched at run time) and its bounds:
 * slow, fail, dropped uploads, lost tasks, a node that dies mid-run; upload limits, the
 * image limit checked after commit as NodeODM does, and no path out of its data folder.
 */
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {
  createTask,
  dronePhotos,
  multipart,
  nodeOdmCall,
  postJson,
  taskInfo,
  waitForTask,
} from '#tests/helpers/nodeodm.ts'
import { unzipSync } from 'fflate'
import { afterEach, describe, expect, it } from 'vitest'

import { startNodeOdmSimulator, type NodeOdmSimulator, type NodeOdmSimulatorOptions } from './index.ts'

const started: NodeOdmSimulator[] = []
const dirs: string[] = []

function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodeodm-faults-'))
  dirs.push(dir)
  return dir
}

/** A small simulator (64 px rasters: these tests are about the API, not the pictures). */
async function start(options: Partial<NodeOdmSimulatorOptions> = {}) {
  const sim = await startNodeOdmSimulator({
    dataDir: options.dataDir ?? dataDir(),
    rasterSize: 64,
    ...options,
  })
  started.push(sim)
  return sim
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()))
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

async function freePort() {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('fault switches', () => {
  it('slow: a task stays running for the seconds asked', async () => {
    const sim = await start({ faults: { slowSeconds: 1.5 } })
    const uuid = await createTask(sim.url, { photos: dronePhotos(2) })
    const running = await waitForTask(sim.url, uuid, (i) => i.status.code === 20)
    expect(running.progress).toBeLessThan(100)
    const done = await waitForTask(sim.url, uuid)
    expect(done.status).toEqual({ code: 40 })
    expect(done.processingTime).toBeGreaterThanOrEqual(1500)
  })

  it('fail (switched on at run time): status 30 with the message, in the output too; restarted without it, it completes', async () => {
    const sim = await start()
    sim.setFaults({ fail: 'Not enough overlap between the photos' })
    const uuid = await createTask(sim.url, { photos: dronePhotos(2) })
    const failed = await waitForTask(sim.url, uuid)
    expect(failed.status).toEqual({ code: 30, errorMessage: 'Not enough overlap between the photos' })
    const lines = (await nodeOdmCall(`${sim.url}/task/${uuid}/output`)).json as unknown as string[]
    expect(lines.at(-1)).toBe('[ERROR]   Not enough overlap between the photos')
    expect((await nodeOdmCall(`${sim.url}/task/${uuid}/download/all.zip`)).json).toEqual({
      error: 'Asset not ready',
    })

    sim.setFaults({ fail: true })
    const second = await createTask(sim.url, { photos: dronePhotos(1) })
    expect((await waitForTask(sim.url, second)).status).toEqual({
      code: 30,
      errorMessage: 'Cannot process dataset',
    })

    sim.setFaults({})
    expect((await postJson(`${sim.url}/task/restart`, { uuid })).json).toEqual({ success: true })
    expect((await waitForTask(sim.url, uuid)).status).toEqual({ code: 40 })
  })

  it('dropUploads: every second upload is a bare 500; retried, all the photos arrive and the task completes', async () => {
    const sim = await start({ faults: { dropUploads: true } })
    const init = await nodeOdmCall(`${sim.url}/task/new/init`, multipart({ name: 'dropped' }))
    const uuid = init.json.uuid as string
    const statuses: number[] = []
    const photos = dronePhotos(6)
    for (let i = 0; i < photos.length; i += 2) {
      for (let attempt = 0; ; attempt++) {
        const res = await nodeOdmCall(
          `${sim.url}/task/new/upload/${uuid}`,
          multipart({}, photos.slice(i, i + 2)),
        )
        statuses.push(res.status)
        if (res.status === 200) {
          expect(res.json).toEqual({ success: true })
          break
        }
        expect(res.text).toBe('Internal Server Error')
        expect(attempt).toBeLessThan(2)
      }
    }
    expect(statuses.filter((s) => s === 500).length).toBeGreaterThanOrEqual(2)
    expect(statuses.filter((s) => s === 200)).toHaveLength(3)
    expect((await nodeOdmCall(`${sim.url}/task/new/commit/${uuid}`, { method: 'POST' })).json).toEqual({
      uuid,
    })
    const done = await waitForTask(sim.url, uuid)
    expect(done).toMatchObject({ status: { code: 40 }, imagesCount: 6 })
  })

  it('loseTasks (a count): the next task is forgotten as it starts, the one after completes', async () => {
    const sim = await start({ faults: { loseTasks: 1 } })
    const lost = await createTask(sim.url, { photos: dronePhotos(2) })
    await waitForTask(sim.url, lost, (i) => i.error !== undefined)
    expect(await taskInfo(sim.url, lost)).toEqual({ error: `${lost} not found` })
    expect((await nodeOdmCall(`${sim.url}/task/list`)).json).not.toContainEqual({ uuid: lost })
    const kept = await createTask(sim.url, { photos: dronePhotos(2) })
    expect((await waitForTask(sim.url, kept)).status).toEqual({ code: 40 })
  })

  it('loseTasks (switched on): the tasks it knew are gone at once', async () => {
    const sim = await start()
    const uuid = await createTask(sim.url, { photos: dronePhotos(1) })
    expect((await waitForTask(sim.url, uuid)).status.code).toBe(40)
    sim.setFaults({ loseTasks: true })
    expect(await taskInfo(sim.url, uuid)).toEqual({ error: `${uuid} not found` })
    expect((await postJson(`${sim.url}/task/remove`, { uuid })).json).toEqual({
      success: false,
      error: `${uuid} not found`,
    })
  })

  it('dieMidRun: the node stops answering once a task runs; started again on its folder, it knows nothing of the task', async () => {
    const dir = dataDir()
    const port = await freePort()
    const sim = await start({ dataDir: dir, port, faults: { dieMidRun: true } })
    const uuid = await createTask(sim.url, { photos: dronePhotos(2) })
    const deadline = Date.now() + 20_000
    let refused: unknown
    while (!refused && Date.now() < deadline) {
      refused = await fetch(`${sim.url}/info`).then(
        () => undefined,
        (error: unknown) => error,
      )
      if (!refused) await new Promise((r) => setTimeout(r, 50))
    }
    expect(refused).toBeInstanceOf(TypeError)
    await sim.close()
    const again = await start({ dataDir: dir, port })
    expect(again.url).toBe(sim.url)
    expect(await taskInfo(again.url, uuid)).toEqual({ error: `${uuid} not found` })
    expect((await nodeOdmCall(`${again.url}/info`)).json.taskQueueCount).toBe(0)
  })

  it('a graceful close keeps the task list (as NodeODM on SIGTERM): finished tasks and their all.zip are there after a restart', async () => {
    const dir = dataDir()
    const sim = await start({ dataDir: dir })
    const uuid = await createTask(sim.url, { name: 'kept', photos: dronePhotos(2) })
    expect((await waitForTask(sim.url, uuid)).status.code).toBe(40)
    await sim.close()
    const again = await start({ dataDir: dir })
    expect(await taskInfo(again.url, uuid)).toMatchObject({
      uuid,
      name: 'kept',
      status: { code: 40 },
      imagesCount: 2,
    })
    const zip = await fetch(`${again.url}/task/${uuid}/download/all.zip`)
    expect(zip.headers.get('content-type')).toBe('application/zip')
  })
})

describe('bounds', () => {
  it('a file over the size limit is refused (noRetry) and nothing of it stays', async () => {
    const dir = dataDir()
    const sim = await start({ dataDir: dir, limits: { maxFileBytes: 600 } })
    const init = await nodeOdmCall(`${sim.url}/task/new/init`, multipart({}))
    const uuid = init.json.uuid as string
    const res = await nodeOdmCall(`${sim.url}/task/new/upload/${uuid}`, multipart({}, dronePhotos(2)))
    expect(res.json).toEqual({ error: 'File too large', noRetry: true })
    expect(fs.readdirSync(path.join(dir, 'tmp', uuid))).toEqual(['body.json'])
  })

  it('more files than a task may take are refused', async () => {
    const sim = await start({ limits: { maxFilesPerTask: 3 } })
    const uuid = (await nodeOdmCall(`${sim.url}/task/new/init`, multipart({}))).json.uuid as string
    expect(
      (await nodeOdmCall(`${sim.url}/task/new/upload/${uuid}`, multipart({}, dronePhotos(2)))).json,
    ).toEqual({
      success: true,
    })
    expect(
      (await nodeOdmCall(`${sim.url}/task/new/upload/${uuid}`, multipart({}, dronePhotos(2, 2)))).json,
    ).toEqual({
      error: 'Too many files',
      noRetry: true,
    })
  })

  it('more images than maxImages: commit answers the uuid, then the task fails with NodeODM’s message', async () => {
    const sim = await start({ limits: { maxImages: 2 } })
    expect((await nodeOdmCall(`${sim.url}/info`)).json.maxImages).toBe(2)
    const uuid = await createTask(sim.url, { photos: dronePhotos(3) })
    expect((await waitForTask(sim.url, uuid)).status).toEqual({
      code: 30,
      errorMessage: '3 images uploaded, but this node can only process up to 2.',
    })
  })

  it('no path leaves the data folder: file names, uuids, set-uuid and outputs', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nodeodm-traversal-'))
    dirs.push(root)
    const dir = path.join(root, 'node')
    const sim = await start({ dataDir: dir })
    const uuid = (await nodeOdmCall(`${sim.url}/task/new/init`, multipart({}))).json.uuid as string
    const photo = dronePhotos(1)[0]!.bytes
    const raw = (filename: string) => {
      const boundary = 'xXxBoundary'
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="${filename}"\r\nContent-Type: image/jpeg\r\n\r\n`
      return {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat([Buffer.from(head), photo, Buffer.from(`\r\n--${boundary}--\r\n`)]),
      }
    }
    for (const name of ['../../escape.JPG', '..\\..\\escape2.JPG']) {
      expect((await nodeOdmCall(`${sim.url}/task/new/upload/${uuid}`, raw(name))).json).toEqual({
        success: true,
      })
    }
    expect((await nodeOdmCall(`${sim.url}/task/new/upload/${uuid}`, raw('..'))).json).toEqual({
      error: 'Invalid file name',
      noRetry: true,
    })
    expect(fs.readdirSync(path.join(dir, 'tmp', uuid)).sort()).toEqual([
      'body.json',
      'escape.JPG',
      'escape2.JPG',
    ])
    expect(fs.readdirSync(root)).toEqual(['node'])

    expect(
      (await nodeOdmCall(`${sim.url}/task/new/upload/..%2F..%2Fnode`, multipart({}, dronePhotos(1)))).json,
    ).toEqual({
      error: 'Invalid uuid (not found)',
    })
    expect((await nodeOdmCall(`${sim.url}/task/new/commit/..%2Ftmp`, { method: 'POST' })).json).toEqual({
      error: 'Invalid uuid (not found)',
    })
    const setUuid = await nodeOdmCall(`${sim.url}/task/new/init`, {
      ...multipart({}),
      headers: { 'set-uuid': '../../x' },
    })
    expect(setUuid.json).toEqual({ error: 'Invalid set-uuid: ../../x' })

    // outputs may only name paths inside the task's folder.
    const init = await nodeOdmCall(
      `${sim.url}/task/new/init`,
      multipart({
        outputs: JSON.stringify([
          '../../../../etc/hostname',
          '/etc/hostname',
          'images.json',
          '../tasks.json',
        ]),
      }),
    )
    const id = init.json.uuid as string
    await nodeOdmCall(`${sim.url}/task/new/upload/${id}`, multipart({}, dronePhotos(1)))
    await nodeOdmCall(`${sim.url}/task/new/commit/${id}`, { method: 'POST' })
    expect((await waitForTask(sim.url, id)).status.code).toBe(40)
    const zip = unzipSync(
      new Uint8Array(await (await fetch(`${sim.url}/task/${id}/download/all.zip`)).arrayBuffer()),
    )
    expect(Object.keys(zip)).toEqual(['images.json'])
  })
})
