/**
 * Sending 2 GiB of photos to a processing node on this machine, through the built server
 * (`npm run build` first): a project with 256 stored photos of 8 MiB, "Process photos"
 * through the API, and the processing runner's own upload (`/task/new/init`, the photos in
 * multipart batches to `/task/new/upload/{uuid}`, `/commit`) to the NodeODM simulator,
 * which streams them to its disk as NodeODM does. Timed from the start call until the job
 * leaves `uploading`, against a raw loopback copy of the same files (read from disk, one TCP
 * connection on 127.0.0.1, written to disk by the same process the node runs in), made before
 * and again after the upload (the disk is still writing the fresh photos out during the first):
 * the faster counts. The server's peak RSS (VmHWM) must stay under 200 MiB; every byte must
 * arrive. Both processes' CPU time is reported: on this 2-core machine they share the cores.
 * Run: `npm run bench -- bench/processing-upload.bench.ts` (BENCH_PHOTOS_MB for the total,
 * BENCH_PHOTO_MB for one photo, BENCH_PORT for the port). Everything lives in a temporary
 * folder removed afterwards.
 *
 * Measured 2026-11-27 on the shared 2-core dev machine (eight sessions busy): raw loopback
 * copy 35.7 s (57 MiB/s); Kestrel's upload 94.1 s (22 MiB/s, 38 % of raw), one batch at a time,
 * the simulator parsing with busboy.
 * Measured 2026-11-28, same machine (load 11–15), 2 GiB: three batches in flight with busboy
 * 43 % of raw (72 of 168 MiB/s; the node used more CPU than Kestrel). With the simulator's
 * Buffer.indexOf reader: one batch at a time 103 % (114 of 111 MiB/s); three in flight 135 %
 * (229 of 169 MiB/s) and 97 % (339 of 349 MiB/s, load 10.8; Kestrel 2.1 s CPU, the node 3.3 s);
 * the server's peak RSS during the upload 188–194 MiB. The raw copy itself ranged from 101 to
 * 349 MiB/s between runs: read the ratio of one run, not the speeds across runs.
 */
import type { ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { geotaggedJpeg } from '#tests/helpers/geotagged-jpeg.ts'
import Database from 'better-sqlite3'
import { bench, describe } from 'vitest'

import { startNodeOdmSimulator, type NodeOdmSimulator } from '../server/nodeodm-simulator/index.ts'
import { benchProject, logIn, peakRss, request, resetPeakRss, startServer, stopServer } from './built-server'

const MiB = 1024 * 1024
const SIZE = Number(process.env.BENCH_PHOTOS_MB ?? 2048) * MiB
const PHOTO = Number(process.env.BENCH_PHOTO_MB ?? 8) * MiB
const PORT = Number(process.env.BENCH_PORT ?? 3242)
const RSS_LIMIT = 200 * MiB

/** `count` photos of PHOTO bytes in `folder`: a geotagged JPEG, then noise (as a camera's compressed pixels). */
async function writePhotos(folder: string, count: number) {
  fs.mkdirSync(folder, { recursive: true })
  const noise = crypto.randomBytes(PHOTO)
  const names: string[] = []
  for (let i = 0; i < count; i++) {
    const head = geotaggedJpeg({ latitude: -33.93 - (i % 16) * 0.0002, longitude: 18.86 + i * 0.00001 })
    const name = `${crypto.randomUUID()}.jpg`
    const out = fs.createWriteStream(path.join(folder, name))
    out.write(head)
    await new Promise<void>((resolve, reject) =>
      out.end(noise.subarray(head.length), (error?: Error | null) => (error ? reject(error) : resolve())),
    )
    names.push(name)
  }
  return names
}

/** The same files read from disk, sent over one loopback TCP connection and written to disk on the other side. */
async function rawLoopbackCopy(files: string[], target: string) {
  const server = net.createServer()
  const landed = new Promise<void>((resolve, reject) => {
    server.once('connection', (socket) =>
      pipeline(socket, fs.createWriteStream(target)).then(resolve, reject),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  const start = performance.now()
  const socket = net.connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  async function* all() {
    for (const file of files) yield* fs.createReadStream(file, { highWaterMark: 256 * 1024 })
  }
  await pipeline(all, socket)
  await landed
  const seconds = (performance.now() - start) / 1000
  server.close()
  return { seconds, received: fs.statSync(target).size }
}

/** CPU seconds (user + system) the process has used so far (/proc, 100 ticks a second). */
function cpuSeconds(pid: number) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Sizes of the files under `folder` (the node's copy of the task's photos). */
function folderBytes(folder: string) {
  let bytes = 0
  let files = 0
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isFile()) continue
    bytes += fs.statSync(path.join(folder, entry.name)).size
    files++
  }
  return { bytes, files }
}

async function run() {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kestrel-odm-bench-'))
  const count = Math.floor(SIZE / PHOTO)
  const total = count * PHOTO
  let server: ChildProcess | undefined
  let node: NodeOdmSimulator | undefined
  try {
    // Written beside the server's files, moved in once their rows exist (the start-up sweep removes files without one).
    const photoDir = path.join(dir, 'photos')
    const names = await writePhotos(photoDir, count)

    const raw = await rawLoopbackCopy(
      names.map((n) => path.join(photoDir, n)),
      path.join(dir, 'raw-copy.bin'),
    )
    fs.rmSync(path.join(dir, 'raw-copy.bin'))
    if (raw.received !== total) throw new Error(`raw copy: ${raw.received} of ${total} bytes`)

    // A task that has its photos waits on the node instead of being processed meanwhile.
    node = await startNodeOdmSimulator({ dataDir: path.join(dir, 'node'), faults: { slowSeconds: 3600 } })
    server = await startServer(dir, PORT, { NODEODM_URL: node.url, PROCESSING_POLL_MS: '100' })
    const sessionId = await logIn(PORT, 'admin@example.com')
    const rssBefore = resetPeakRss(server.pid!)
    const db = new Database(path.join(dir, 'kestrel.sqlite'))
    db.pragma('busy_timeout = 5000')
    const now = Date.now()
    const project = benchProject(db, { status: 'in_progress', is_paid: 1 })
    const insert = db.prepare(
      `insert into project_files (project_id, file_name, original_name, file_url, file_type, file_size, file_category, created_at) values (?, ?, ?, '', 'image/jpeg', ?, 'raw_image', ?)`,
    )
    const stored = path.join(dir, 'files', 'projects', String(project.id))
    fs.mkdirSync(stored, { recursive: true })
    db.transaction(() => {
      names.forEach((name, i) => {
        fs.renameSync(path.join(photoDir, name), path.join(stored, name))
        insert.run(
          project.id,
          `projects/${project.id}/${name}`,
          `DJI_${String(i).padStart(4, '0')}.JPG`,
          PHOTO,
          now,
        )
      })
    })()

    // The node is checked as the server starts; until then there is no node to take the job.
    const cpuBefore = { server: cpuSeconds(server.pid!), node: cpuSeconds(process.pid) }
    const start = performance.now()
    let started
    for (const deadline = Date.now() + 30_000; ; ) {
      started = await request(
        PORT,
        'POST',
        `/api/admin/projects/${project.id}/processing`,
        { 'Content-Type': 'application/json', 'x-session-id': sessionId, Origin: `http://127.0.0.1:${PORT}` },
        JSON.stringify({ preset: 'fast-orthophoto' }),
      )
      if (started.status !== 409 || Date.now() > deadline) break
      await new Promise((r) => setTimeout(r, 100))
    }
    if (started.status !== 201) throw new Error(`start: ${started.status} ${started.text}`)
    const { job } = JSON.parse(started.text) as { job: { id: number } }
    const jobRow = db.prepare(`select status, error, task_uuid as uuid from processing_jobs where id = ?`)
    let row: { status: string; error: string | null; uuid: string | null }
    for (;;) {
      row = jobRow.get(job.id) as typeof row
      if (!['queued', 'uploading'].includes(row.status)) break
      await new Promise((r) => setTimeout(r, 50))
    }
    const seconds = (performance.now() - start) / 1000
    const cpu = {
      server: cpuSeconds(server.pid!) - cpuBefore.server,
      node: cpuSeconds(process.pid) - cpuBefore.node,
    }
    db.close()
    if (row.status !== 'processing') throw new Error(`job ${row.status}: ${row.error}`)
    // The node files the committed photos under its task's folder as it starts the task.
    const images = path.join(dir, 'node', 'data', row.uuid!, 'images')
    let arrived = { bytes: 0, files: 0 }
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      if (fs.existsSync(images)) arrived = folderBytes(images)
      if (arrived.files === count) break
      await new Promise((r) => setTimeout(r, 200))
    }
    if (arrived.files !== count || arrived.bytes !== total)
      throw new Error(`the node has ${arrived.files} photos, ${arrived.bytes} bytes of ${total}`)

    const rss = peakRss(server.pid!)
    // The raw copy again on the same files, now that the disk has settled from writing them: the faster one counts.
    const again = await rawLoopbackCopy(
      names.map((n) => path.join(stored, n)),
      path.join(dir, 'raw-copy.bin'),
    )
    fs.rmSync(path.join(dir, 'raw-copy.bin'))
    if (again.received !== total) throw new Error(`raw copy: ${again.received} of ${total} bytes`)
    const rawSeconds = Math.min(raw.seconds, again.seconds)
    const rawSpeed = total / MiB / rawSeconds
    const speed = total / MiB / seconds
    console.log(
      [
        `sending ${total / MiB} MiB (${count} photos of ${PHOTO / MiB} MiB) to a NodeODM node on this machine`,
        `  raw loopback copy (disk → TCP 127.0.0.1 → disk): ${rawSpeed.toFixed(0)} MiB/s (the faster of ${raw.seconds.toFixed(1)} s before and ${again.seconds.toFixed(1)} s after)`,
        `  Kestrel's upload (init, batches, commit):        ${speed.toFixed(0)} MiB/s (${seconds.toFixed(1)} s) = ${((speed / rawSpeed) * 100).toFixed(0)} % of raw`,
        `  Kestrel's peak RSS during it (VmHWM):            ${(rss / MiB).toFixed(0)} MiB (needs < 200 MiB; ${(rssBefore / MiB).toFixed(0)} MiB at start and sign-in)`,
        `  CPU during it: Kestrel ${cpu.server.toFixed(1)} s, the node (this process) ${cpu.node.toFixed(1)} s; load ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`,
      ].join('\n'),
    )
    if (rss >= RSS_LIMIT) throw new Error(`peak RSS ${(rss / MiB).toFixed(0)} MiB ≥ 200 MiB`)
  } catch (error) {
    console.error(error)
    throw error
  } finally {
    await node?.close()
    await stopServer(server, dir).catch(() => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 }))
  }
}

describe('processing upload', () => {
  bench(`${SIZE / MiB} MiB of photos to a NodeODM node`, run, {
    iterations: 1,
    warmupIterations: 0,
    time: 0,
    warmupTime: 0,
  })
})
