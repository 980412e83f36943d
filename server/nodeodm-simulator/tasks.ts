/**
 * The simulator's task manager, after NodeODM's: tasks in memory (written to
 * `data/tasks.json` only on a graceful close, as NodeODM dumps its list on SIGTERM), one
 * task processed at a time, the rest queued; a task that ends (either way) calls its
 * webhook, retried as NodeODM does. Processing runs ODM's stages with console lines and a
 * progress that only goes up, then makes the products (`outputs.ts`) and `all.zip`.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'

import { outboundRequest, readBodyWithin } from '../../app/lib/http/outbound.server.ts'
import { POST_PROCESSING_OPTIONS, type TaskOption } from './options.ts'
import { makeProducts, zipProducts, type ImageRecord } from './outputs.ts'

export const STATUS = { QUEUED: 10, RUNNING: 20, FAILED: 30, COMPLETED: 40, CANCELED: 50 } as const
type StatusCode = (typeof STATUS)[keyof typeof STATUS]

export interface NodeOdmFaults {
  /** Every task takes at least this many seconds (NodeODM's `--test_seconds`). */
  slowSeconds?: number
  /** Every task fails (status 30): `true` with ODM's "Cannot process dataset", a string with that message. */
  fail?: boolean | string
  /** Every second upload request is answered with HTTP 500 before its body is read (`--test_drop_uploads` drops half at random). */
  dropUploads?: boolean
  /**
   * The node forgets tasks ("… not found" afterwards), as a new machine behind the same URL
   * would: `true` forgets every task known when it is switched on and each task that starts
   * running while it stays on; a number forgets that many tasks as they start running, then stops.
   */
  loseTasks?: boolean | number
  /** The node dies (listener closed, every socket destroyed, nothing saved) once a task is under way. */
  dieMidRun?: boolean
}

export interface SimulatorLimits {
  maxImages: number
  /** Largest single uploaded file. */
  maxFileBytes: number
  /** Files one task may receive (photos, GCP and the like) before uploads are refused. */
  maxFilesPerTask: number
  /** Bytes one task may receive before uploads are refused. */
  maxTaskBytes: number
}

export interface TaskStatus {
  code: StatusCode
  errorMessage?: string
}

/** What NodeODM writes to tasks.json (and reads back at start). */
interface SerializedTask {
  uuid: string
  name: string | undefined
  dateCreated: number
  dateStarted: number
  status: TaskStatus
  options: TaskOption[]
  webhook: string | null
  skipPostProcessing: boolean
  outputs: string[]
}

export class SimTask {
  name: string | undefined
  dateCreated: number
  dateStarted = 0
  /** Set when a run ends; -1 before a run and after a cancel. */
  finishedProcessingTime = -1
  status: TaskStatus = { code: STATUS.RUNNING }
  output: string[] = []
  progress = 0
  images: string[] | undefined
  gcpFiles: string[] = []
  initialized = false
  /** Bumped on every start, cancel and removal: a run that sees another value stops. */
  generation = 0
  abort: AbortController | undefined

  constructor(
    readonly uuid: string,
    name: string | undefined,
    public options: TaskOption[],
    readonly webhook: string | null,
    readonly skipPostProcessing: boolean,
    readonly outputs: string[],
    dateCreated: unknown,
    readonly imagesCountEstimate: number,
  ) {
    // NodeODM: an empty name gets a default; a missing one stays missing.
    this.name = name !== '' ? name : `Task of ${new Date().toISOString()}`
    const created = Number.parseInt(String(dateCreated), 10)
    this.dateCreated = Number.isNaN(created) ? Date.now() : created
  }

  get processingTime() {
    if (this.status.code === STATUS.RUNNING && this.dateStarted > 0) return Date.now() - this.dateStarted
    return this.finishedProcessingTime
  }

  setStatus(code: StatusCode, errorMessage?: string) {
    this.status = errorMessage === undefined ? { code } : { code, errorMessage }
  }

  updateProgress(value: number) {
    const p = Math.min(100, Math.max(0, value))
    if (p >= this.progress) this.progress = p
  }

  info() {
    return {
      uuid: this.uuid,
      name: this.name,
      dateCreated: this.dateCreated,
      processingTime: this.processingTime,
      status: this.status,
      options: this.options,
      imagesCount: this.images !== undefined ? this.images.length : this.imagesCountEstimate,
      progress: this.progress,
    }
  }

  /** Console lines from `line` on; a negative `line` counts from the end, as Array#slice (and NodeODM). */
  outputFrom(line: unknown) {
    const n = Number.parseInt(String(line ?? 0), 10)
    return this.output.slice(Number.isNaN(n) ? 0 : n)
  }

  serialize(): SerializedTask {
    return {
      uuid: this.uuid,
      name: this.name,
      dateCreated: this.dateCreated,
      dateStarted: this.dateStarted,
      status: this.status,
      options: this.options,
      webhook: this.webhook,
      skipPostProcessing: this.skipPostProcessing,
      outputs: this.outputs,
    }
  }
}

/** ODM's stages with the progress NodeODM shows at their end (ODM reports 0–100; NodeODM keeps 10 % for itself). */
const STAGES: Array<{ name: string; progress: number; lines: (t: SimTask) => string[] }> = [
  {
    name: 'dataset',
    progress: 4,
    lines: (t) => [
      `Loading dataset from: ${t.uuid}/images`,
      `Found ${t.images?.length ?? 0} usable images`,
      ...(t.gcpFiles.length ? [`Found GCP file: ${t.gcpFiles[0]}`] : []),
    ],
  },
  { name: 'split', progress: 7, lines: () => ['Normal dataset, will process all at once.'] },
  { name: 'merge', progress: 9, lines: () => ['Normal dataset, nothing to merge.'] },
  {
    name: 'opensfm',
    progress: 36,
    lines: (t) => [
      'Extracting features (simulated)',
      `Matching ${t.images?.length ?? 0} images (simulated)`,
      'Reconstruction: 1 partial reconstruction (simulated)',
    ],
  },
  { name: 'openmvs', progress: 54, lines: () => ['Densifying point cloud (simulated)'] },
  { name: 'odm_filterpoints', progress: 58, lines: () => ['Filtering point cloud (simulated)'] },
  { name: 'odm_meshing', progress: 63, lines: () => ['Creating 2.5D mesh (simulated)'] },
  { name: 'mvs_texturing', progress: 70, lines: () => ['Texturing mesh (simulated)'] },
  { name: 'odm_georeferencing', progress: 76, lines: () => ['Georeferencing point cloud'] },
  { name: 'odm_dem', progress: 82, lines: () => ['Creating DEMs'] },
  { name: 'odm_orthophoto', progress: 87, lines: () => ['Creating orthophoto'] },
  { name: 'odm_report', progress: 89, lines: () => ['Exporting report'] },
  { name: 'odm_postprocess', progress: 90, lines: () => ['Post processing'] },
]

export const ENGINE_VERSION = '3.5.6-simulated'
const FAIL_MESSAGE = 'Cannot process dataset'

const delay = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted || ms <= 0) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })

export class TaskManager {
  readonly tasks = new Map<string, SimTask>()
  private running: SimTask | undefined
  private webhookTimers = new Set<NodeJS.Timeout>()
  private closed = false
  faults: NodeOdmFaults = {}
  private lostSoFar = 0

  constructor(
    readonly dataDir: string,
    readonly limits: SimulatorLimits,
    private readonly hooks: { onDie: () => void; webhookRetryMs: number; rasterSize: number },
  ) {}

  get tmpDir() {
    return path.join(this.dataDir, 'tmp')
  }

  get tasksDir() {
    return path.join(this.dataDir, 'data')
  }

  /** A task's upload folder (before commit) or project folder; the uuid is checked by the caller. */
  uploadDir(uuid: string) {
    return path.join(this.tmpDir, uuid)
  }

  projectDir(uuid: string) {
    return path.join(this.tasksDir, uuid)
  }

  zipPath(uuid: string) {
    return path.join(this.projectDir(uuid), 'all.zip')
  }

  setFaults(faults: NodeOdmFaults) {
    this.faults = { ...faults }
    this.lostSoFar = 0
    if (faults.loseTasks === true) for (const task of [...this.tasks.values()]) this.forget(task)
  }

  queueCount() {
    let n = 0
    for (const task of this.tasks.values())
      if (task.status.code === STATUS.QUEUED || task.status.code === STATUS.RUNNING) n++
    return n
  }

  /** Adds a committed task whose files are in its upload folder: they move to the project folder, then it queues. */
  async addCommitted(task: SimTask) {
    this.tasks.set(task.uuid, task)
    const src = this.uploadDir(task.uuid)
    const dest = this.projectDir(task.uuid)
    try {
      await fsp.rm(dest, { recursive: true, force: true })
      await fsp.mkdir(path.join(dest, 'gcp'), { recursive: true })
      await fsp.rename(src, path.join(dest, 'images'))
      const entries = await fsp.readdir(path.join(dest, 'images'))
      const images = entries.filter((e) => !/\.txt$/i.test(e) && !/^align\.(las|laz|tif)$/i.test(e))
      if (images.length > this.limits.maxImages)
        throw new Error(
          `${images.length} images uploaded, but this node can only process up to ${this.limits.maxImages}.`,
        )
      for (const entry of entries)
        if (!images.includes(entry))
          await fsp.rename(path.join(dest, 'images', entry), path.join(dest, 'gcp', entry))
      task.images = images
      task.gcpFiles = entries.filter((e) => /\.txt$/i.test(e) && !/^(geo|image_groups)\.txt$/i.test(e))
      if (!task.skipPostProcessing)
        for (const name of POST_PROCESSING_OPTIONS)
          if (!task.options.some((o) => o.name === name)) task.options.push({ name, value: true })
      if (task.status.code === STATUS.RUNNING) task.setStatus(STATUS.QUEUED)
    } catch (error) {
      if (task.status.code === STATUS.RUNNING) task.setStatus(STATUS.FAILED, (error as Error).message)
      await fsp.rm(src, { recursive: true, force: true })
    }
    task.initialized = true
    this.processNext()
  }

  find(uuid: string) {
    return this.tasks.get(uuid)
  }

  cancel(uuid: string): Error | null {
    const task = this.find(uuid)
    if (!task) return new Error(`${uuid} not found`)
    if (task.status.code === STATUS.CANCELED) return null
    const wasRunning = task.status.code === STATUS.RUNNING
    task.setStatus(STATUS.CANCELED)
    task.finishedProcessingTime = -1
    if (wasRunning && this.running === task) this.stopRun(task, true)
    return null
  }

  async remove(uuid: string): Promise<Error | null> {
    const error = this.cancel(uuid)
    if (error) return error
    const task = this.find(uuid)
    if (!task) return new Error(`${uuid} not found`)
    this.tasks.delete(uuid)
    await fsp.rm(this.projectDir(uuid), { recursive: true, force: true })
    this.processNext()
    return null
  }

  async restart(uuid: string, options: TaskOption[] | undefined): Promise<Error | null> {
    const task = this.find(uuid)
    if (!task) return new Error(`${uuid} not found`)
    const { code } = task.status
    if (code !== STATUS.CANCELED && code !== STATUS.FAILED && code !== STATUS.COMPLETED)
      return new Error('Task cannot be restarted')
    if (!task.initialized) return new Error('Task cannot be restarted')
    task.setStatus(STATUS.QUEUED)
    task.dateCreated = Date.now()
    task.dateStarted = 0
    task.output = []
    task.progress = 0
    task.finishedProcessingTime = -1
    if (options) {
      task.options = options
      if (!task.skipPostProcessing)
        for (const name of POST_PROCESSING_OPTIONS)
          if (!task.options.some((o) => o.name === name)) task.options.push({ name, value: true })
    }
    // The old products go: a download while the task runs again answers "Asset not ready".
    await fsp.rm(this.zipPath(uuid), { force: true })
    this.processNext()
    return null
  }

  private forget(task: SimTask) {
    if (this.running === task) this.stopRun(task, false)
    this.tasks.delete(task.uuid)
    fs.rm(this.projectDir(task.uuid), { recursive: true, force: true }, () => {})
  }

  private stopRun(task: SimTask, thenNext: boolean) {
    task.generation++
    task.abort?.abort()
    if (this.running === task) this.running = undefined
    if (thenNext) {
      this.callWebhook(task)
      this.processNext()
    }
  }

  processNext() {
    if (this.closed || this.running) return
    const next = [...this.tasks.values()].find((t) => t.status.code === STATUS.QUEUED && t.initialized)
    if (!next) return
    this.running = next
    void this.run(next)
  }

  private async run(task: SimTask) {
    const generation = ++task.generation
    const abort = new AbortController()
    task.abort = abort
    task.setStatus(STATUS.RUNNING)
    task.dateStarted = Date.now()
    task.finishedProcessingTime = -1
    const current = () => task.generation === generation && !this.closed
    const log = (...lines: string[]) => {
      if (current()) for (const line of lines) task.output.push(line)
    }

    const faults = this.faults
    if (
      faults.loseTasks === true ||
      (typeof faults.loseTasks === 'number' && this.lostSoFar < faults.loseTasks)
    ) {
      this.lostSoFar++
      this.forget(task)
      this.processNext()
      return
    }

    const stageMs = ((faults.slowSeconds ?? 0) * 1000) / STAGES.length
    const failAt = faults.fail ? 'openmvs' : undefined
    log(
      `[INFO]    Initializing ODM ${ENGINE_VERSION} - ${new Date().toUTCString()}`,
      "[WARNING] SIMULATED PROCESSING: this node is Kestrel's NodeODM simulator; no photogrammetry is run and its products are made up",
    )
    try {
      for (const stage of STAGES) {
        if (!current()) return
        log(`[INFO]    Running ${stage.name} stage`, ...stage.lines(task).map((l) => `[INFO]    ${l}`))
        if (faults.dieMidRun && stage.progress >= 36) {
          this.hooks.onDie()
          return
        }
        if (stage.name === failAt) {
          const message = typeof faults.fail === 'string' ? faults.fail : FAIL_MESSAGE
          log(
            '[ERROR]   The program could not process this dataset using the current settings (simulated failure).',
            `[ERROR]   ${message}`,
          )
          throw new TaskFailure(message)
        }
        if (stage.name === 'odm_georeferencing') {
          const records = await makeProducts({
            imagesDir: path.join(this.projectDir(task.uuid), 'images'),
            images: task.images ?? [],
            outDir: this.projectDir(task.uuid),
            rasterSize: this.hooks.rasterSize,
            options: task.options,
            signal: abort.signal,
            log: (line) => log(`[INFO]    ${line}`),
            onProgress: (p) => current() && task.updateProgress(76 + (p / 100) * 13),
          })
          if (!current()) return
          await writeImagesJson(this.projectDir(task.uuid), records)
        }
        await delay(stageMs, abort.signal)
        if (!current()) return
        task.updateProgress(stage.progress)
      }
      log(`[INFO]    ODM app finished - ${new Date().toUTCString()}`, 'Postprocessing: done (simulated)')
      task.updateProgress(93)
      await fsp.writeFile(path.join(this.projectDir(task.uuid), 'task_output.txt'), task.output.join('\n'))
      log('Compressing all.zip')
      await zipProducts(this.projectDir(task.uuid), task.outputs, abort.signal)
      if (!current()) return
      task.setStatus(STATUS.COMPLETED)
    } catch (error) {
      if (!current()) return
      const message =
        error instanceof TaskFailure ? error.message : `Cannot process dataset (${(error as Error).message})`
      if (!(error instanceof TaskFailure)) log(`[ERROR]   ${(error as Error).message}`)
      task.setStatus(STATUS.FAILED, message)
    }
    task.updateProgress(100)
    task.finishedProcessingTime = Date.now() - task.dateStarted
    task.abort = undefined
    this.running = undefined
    this.callWebhook(task)
    this.processNext()
  }

  private callWebhook(task: SimTask) {
    const hook = task.webhook
    if (!hook || hook.length <= 3 || this.closed) return
    const projectDir = this.projectDir(task.uuid)
    const send = async (attempt: number) => {
      if (this.closed || attempt > 5) return
      let images: unknown = []
      try {
        images = JSON.parse(await fsp.readFile(path.join(projectDir, 'images.json'), 'utf8'))
      } catch {
        // NodeODM sends an empty list when it cannot read images.json.
      }
      let ok = false
      try {
        const res = await outboundRequest(new URL(hook), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...task.info(), images }),
          deadlineMs: 10_000,
        })
        await readBodyWithin(res, 64 * 1024)
        ok = res.status === 200
      } catch {
        ok = false
      }
      if (!ok && !this.closed) {
        const timer = setTimeout(() => {
          this.webhookTimers.delete(timer)
          void send(attempt + 1)
        }, attempt * this.hooks.webhookRetryMs)
        timer.unref()
        this.webhookTimers.add(timer)
      }
    }
    void send(0)
  }

  /** Stops every run and timer; with `save`, writes the task list as NodeODM does on SIGTERM. */
  async shutdown(save: boolean) {
    if (this.closed) return
    this.closed = true
    for (const timer of this.webhookTimers) clearTimeout(timer)
    this.webhookTimers.clear()
    for (const task of this.tasks.values()) {
      task.generation++
      task.abort?.abort()
    }
    this.running = undefined
    if (save) {
      await fsp.mkdir(this.tasksDir, { recursive: true })
      const list = [...this.tasks.values()].map((t) => t.serialize())
      await fsp.writeFile(path.join(this.tasksDir, 'tasks.json'), JSON.stringify(list))
    }
  }

  /** Reads the list a graceful close left; tasks that were running queue again, as in NodeODM. */
  async restore() {
    let list: SerializedTask[]
    try {
      list = JSON.parse(
        await fsp.readFile(path.join(this.tasksDir, 'tasks.json'), 'utf8'),
      ) as SerializedTask[]
    } catch {
      return
    }
    for (const saved of Array.isArray(list) ? list : []) {
      if (typeof saved?.uuid !== 'string' || !UUID_PATTERN.test(saved.uuid)) continue
      const dir = this.projectDir(saved.uuid)
      let images: string[]
      try {
        images = await fsp.readdir(path.join(dir, 'images'))
      } catch {
        continue
      }
      const task = new SimTask(
        saved.uuid,
        saved.name,
        saved.options ?? [],
        saved.webhook ?? null,
        !!saved.skipPostProcessing,
        saved.outputs ?? [],
        saved.dateCreated,
        images.length,
      )
      task.images = images
      task.gcpFiles = await fsp.readdir(path.join(dir, 'gcp')).catch(() => [])
      task.dateStarted = saved.dateStarted ?? 0
      task.status = saved.status?.code === STATUS.RUNNING ? { code: STATUS.QUEUED } : saved.status
      if (task.status.code === STATUS.COMPLETED || task.status.code === STATUS.FAILED) task.progress = 100
      task.initialized = true
      this.tasks.set(task.uuid, task)
    }
    this.processNext()
  }
}

class TaskFailure extends Error {}

/** NodeODM's uuids (v4, lower or upper case); anything else names no task and no folder. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-7][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

export function newUuid() {
  return crypto.randomUUID()
}

async function writeImagesJson(projectDir: string, records: ImageRecord[]) {
  await fsp.writeFile(path.join(projectDir, 'images.json'), JSON.stringify(records, null, 2))
}
