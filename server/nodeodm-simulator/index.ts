/**
 * A NodeODM-compatible processing node of our own (like the PayFast simulator): the tests,
 * `npm run demo` and the journeys use it as the default node. It speaks NodeODM's REST API
 * as NodeODM 2.2 answers it — most failures are HTTP 200 with `{ error }`, a token goes in
 * `?token=`, only `all.zip` downloads, whole, Range ignored — and makes its products with
 * GDAL over the task's `boundary` (or the photos' EXIF positions), every one marked
 * "SIMULATED PROCESSING". Fault switches make it slow, fail, drop uploads, forget its
 * tasks or die mid-run. See README.md beside this file for what differs from the real one.
 */
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import express, { type NextFunction, type Request, type Response } from 'express'

import { filterOptions, ODM_OPTIONS, type TaskOption } from './options.ts'
import {
  ENGINE_VERSION,
  newUuid,
  SimTask,
  TaskManager,
  UUID_PATTERN,
  type NodeOdmFaults,
  type SimulatorLimits,
} from './tasks.ts'
import { receiveMultipart, UploadError } from './uploads.ts'

export type { NodeOdmFaults } from './tasks.ts'

/** The NodeODM version whose API this simulator follows. */
const NODEODM_VERSION = '2.2.4'

export interface NodeOdmSimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number
  host?: string
  /** Required as `?token=` on every call when set. */
  token?: string
  /** Uploads, task folders and products live here and nowhere else. */
  dataDir: string
  faults?: NodeOdmFaults
  limits?: Partial<SimulatorLimits>
  /** Webhook retries wait attempt × this (NodeODM: 5 s). */
  webhookRetryMs?: number
  /** Longest side of the simulated orthophoto in pixels (DEMs: half); 512 unless set, 64–4096. */
  rasterSize?: number
}

export interface NodeOdmSimulator {
  url: string
  close(): Promise<void>
  setFaults(faults: NodeOdmFaults): void
}

const DEFAULT_LIMITS: SimulatorLimits = {
  maxImages: 2000,
  maxFileBytes: 256 * 1024 * 1024,
  maxFilesPerTask: 2100,
  maxTaskBytes: 32 * 1024 ** 3,
}

type TaskRequest = Request & { task?: SimTask }

export async function startNodeOdmSimulator(options: NodeOdmSimulatorOptions): Promise<NodeOdmSimulator> {
  const dataDir = path.resolve(options.dataDir)
  const limits = { ...DEFAULT_LIMITS, ...options.limits }
  await fsp.mkdir(path.join(dataDir, 'tmp'), { recursive: true })
  await fsp.mkdir(path.join(dataDir, 'data'), { recursive: true })

  const sockets = new Set<Socket>()
  let dead = false
  let uploadsSeen = 0
  // The app is attached below; the server exists first so a fault can close it.
  const server = http.createServer()
  const die = () => {
    if (dead) return
    dead = true
    void manager.shutdown(false)
    server.close()
    for (const socket of sockets) socket.destroy()
  }
  const manager = new TaskManager(dataDir, limits, {
    onDie: die,
    webhookRetryMs: options.webhookRetryMs ?? 5000,
    rasterSize: Math.min(4096, Math.max(64, Math.round(options.rasterSize ?? 512))),
  })
  manager.setFaults(options.faults ?? {})
  await manager.restore()

  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)
  // NodeODM answers every origin (the cors middleware's defaults).
  app.use((req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*')
    if (req.method !== 'OPTIONS') return next()
    res.setHeader('Access-Control-Allow-Methods', 'GET,HEAD,PUT,PATCH,POST,DELETE')
    const asked = req.get('access-control-request-headers')
    if (asked) res.setHeader('Access-Control-Allow-Headers', asked)
    res.status(204).end()
  })

  const auth = (req: Request, res: Response, next: NextFunction) => {
    if (!options.token || req.query.token === options.token) return next()
    res.json({ error: 'Invalid authentication token: token does not match.' })
  }
  const findTask = (req: TaskRequest, res: Response, next: NextFunction) => {
    const uuid = String(req.params.uuid)
    const task = manager.find(uuid)
    if (!task) return res.json({ error: `${uuid} not found` })
    req.task = task
    next()
  }
  /** NodeODM's check that an upload folder with its body.json exists for the uuid. */
  const pendingUpload = async (req: Request, res: Response, next: NextFunction) => {
    const uuid = String(req.params.uuid)
    if (!UUID_PATTERN.test(uuid)) return res.json({ error: 'Invalid uuid (not found)' })
    try {
      await fsp.access(path.join(manager.uploadDir(uuid), 'body.json'))
      next()
    } catch {
      res.json({ error: 'Invalid uuid (not found)' })
    }
  }
  const bodyParsers = [express.urlencoded({ extended: false, limit: '1mb' }), express.json({ limit: '1mb' })]
  const uuidParam = (req: Request, res: Response, next: NextFunction) => {
    const uuid: unknown = req.body?.uuid
    if (!uuid) return res.json({ error: 'uuid param missing.' })
    next()
  }

  /** Files a task has received so far (count and bytes), from its upload folder. */
  async function uploadedSoFar(dir: string) {
    let files = 0
    let bytes = 0
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      if (!entry.isFile() || entry.name === 'body.json') continue
      files++
      bytes += (await fsp.stat(path.join(dir, entry.name))).size
    }
    return { files, bytes }
  }

  async function receiveInto(req: Request, dir: string | null) {
    const so = dir ? await uploadedSoFar(dir) : { files: 0, bytes: 0 }
    return receiveMultipart(req, dir, {
      maxFileBytes: limits.maxFileBytes,
      maxFiles: limits.maxFilesPerTask - so.files,
      maxBytes: limits.maxTaskBytes - so.bytes,
    })
  }

  function taskFromBody(uuid: string, body: Record<string, string>, imagesCount: number) {
    return new SimTask(
      uuid,
      body.name,
      filterOptions(body.options),
      body.webhook ?? null,
      body.skipPostProcessing === 'true',
      parseOutputs(body.outputs),
      body.dateCreated,
      imagesCount,
    )
  }

  const assignUuid = (req: Request, res: Response) => {
    const wanted = req.get('set-uuid')
    if (wanted === undefined) return newUuid()
    if (UUID_PATTERN.test(wanted) && !manager.find(wanted) && !fs.existsSync(manager.uploadDir(wanted)))
      return wanted
    res.json({ error: `Invalid set-uuid: ${wanted}` })
    return null
  }

  app.post('/task/new/init', auth, async (req, res) => {
    const uuid = assignUuid(req, res)
    if (!uuid) return
    const dir = manager.uploadDir(uuid)
    try {
      const { fields } = await receiveInto(req, null)
      if (fields.options) filterOptions(fields.options)
      await fsp.mkdir(dir, { recursive: true })
      await fsp.writeFile(path.join(dir, 'body.json'), JSON.stringify(fields))
      res.json({ uuid })
    } catch (error) {
      await fsp.rm(dir, { recursive: true, force: true })
      res.json({ error: (error as Error).message })
    }
  })

  app.post('/task/new/upload/:uuid', auth, pendingUpload, async (req, res) => {
    if (manager.faults.dropUploads && uploadsSeen++ % 2 === 1) {
      res.status(500).type('text/plain').send('Internal Server Error')
      req.resume()
      return
    }
    try {
      const { files } = await receiveInto(req, manager.uploadDir(String(req.params.uuid)))
      if (files.length > 0) res.json({ success: true })
      else res.json({ error: 'Need at least 1 file.', noRetry: true })
    } catch (error) {
      const body: Record<string, unknown> = { error: (error as Error).message }
      if (error instanceof UploadError && error.noRetry) body.noRetry = true
      res.json(body)
    }
  })

  app.post('/task/new/commit/:uuid', auth, pendingUpload, async (req, res) => {
    const uuid = String(req.params.uuid)
    const dir = manager.uploadDir(uuid)
    let body: Record<string, string>
    try {
      body = JSON.parse(await fsp.readFile(path.join(dir, 'body.json'), 'utf8')) as Record<string, string>
      await fsp.rm(path.join(dir, 'body.json'))
    } catch {
      return res.json({ error: 'Malformed body.json' })
    }
    const entries = await fsp.readdir(dir)
    if (entries.length === 0) {
      await fsp.rm(dir, { recursive: true, force: true })
      return res.json({ error: 'Need at least 1 file.' })
    }
    let task: SimTask
    try {
      task = taskFromBody(uuid, body, entries.length)
    } catch (error) {
      await fsp.rm(dir, { recursive: true, force: true })
      return res.json({ error: (error as Error).message })
    }
    res.json({ uuid })
    // As NodeODM: the answer comes first, the image-count check after (a failed task).
    void manager.addCommitted(task)
  })

  app.post('/task/new', auth, async (req, res) => {
    const uuid = assignUuid(req, res)
    if (!uuid) return
    const dir = manager.uploadDir(uuid)
    await fsp.mkdir(dir, { recursive: true })
    try {
      const { fields, files } = await receiveInto(req, dir)
      if (files.length === 0) throw new Error('Need at least 1 file or a zip file url.')
      if (files.length > limits.maxImages)
        throw new Error(
          `${files.length} images uploaded, but this node can only process up to ${limits.maxImages}.`,
        )
      const task = taskFromBody(uuid, fields, files.length)
      res.json({ uuid })
      void manager.addCommitted(task)
    } catch (error) {
      await fsp.rm(dir, { recursive: true, force: true })
      res.json({ error: (error as Error).message })
    }
  })

  app.get('/task/list', auth, (_req, res) => {
    res.json([...manager.tasks.keys()].map((uuid) => ({ uuid })))
  })

  app.get('/task/:uuid/info', auth, findTask, (req: TaskRequest, res) => {
    const info: Record<string, unknown> = req.task!.info()
    if (req.query.with_output !== undefined) info.output = req.task!.outputFrom(req.query.with_output)
    res.json(info)
  })

  app.get('/task/:uuid/output', auth, findTask, (req: TaskRequest, res) => {
    res.json(req.task!.outputFrom(req.query.line))
  })

  app.get('/task/:uuid/download/:asset', auth, findTask, async (req: TaskRequest, res) => {
    const asset = String(req.params.asset)
    if (asset !== 'all.zip') return res.json({ error: 'Invalid asset' })
    const file = manager.zipPath(req.task!.uuid)
    let size: number
    try {
      size = (await fsp.stat(file)).size
    } catch {
      return res.json({ error: 'Asset not ready' })
    }
    // Whole, 200, Range ignored: NodeODM pipes the file itself.
    res.status(200)
    res.setHeader('Content-Disposition', `attachment; filename=${asset}`)
    res.setHeader('Content-Type', 'application/zip')
    res.setHeader('Content-Length', String(size))
    fs.createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res)
  })

  app.post('/task/cancel', ...bodyParsers, auth, uuidParam, (req, res) => {
    const error = manager.cancel(String(req.body.uuid))
    res.json(error ? { success: false, error: error.message } : { success: true })
  })

  app.post('/task/remove', ...bodyParsers, auth, uuidParam, async (req, res) => {
    const error = await manager.remove(String(req.body.uuid))
    res.json(error ? { success: false, error: error.message } : { success: true })
  })

  app.post('/task/restart', ...bodyParsers, auth, uuidParam, async (req, res) => {
    let restartOptions: TaskOption[] | undefined
    if (req.body.options) {
      try {
        restartOptions = filterOptions(req.body.options)
      } catch (error) {
        return res.json({ error: (error as Error).message })
      }
    }
    const error = await manager.restart(String(req.body.uuid), restartOptions)
    res.json(error ? { success: false, error: error.message } : { success: true })
  })

  app.get('/options', auth, (_req, res) => {
    res.json(ODM_OPTIONS)
  })

  app.get('/info', auth, (_req, res) => {
    res.json({
      version: NODEODM_VERSION,
      taskQueueCount: manager.queueCount(),
      totalMemory: os.totalmem(),
      availableMemory: os.freemem(),
      cpuCores: os.cpus().length,
      maxImages: limits.maxImages,
      maxParallelTasks: 1,
      engineVersion: ENGINE_VERSION,
      engine: 'odm',
    })
  })

  app.get('/auth/info', (_req, res) => {
    res.json({ message: 'Authentication not available on this node', loginUrl: null, registerUrl: null })
  })

  // NodeODM's last handler: any thrown error is a 200 with its message.
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return res.destroy()
    res.json({ error: error.message })
  })

  server.on('request', app)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address

  return {
    url: `http://${host}:${address.port}`,
    setFaults: (faults) => manager.setFaults(faults),
    async close() {
      if (!dead) {
        dead = true
        await manager.shutdown(true)
        for (const socket of sockets) socket.destroy()
      }
      await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))
    },
  }
}

/** NodeODM's `outputs`: a JSON list of relative paths, traversals removed; anything else is none. */
function parseOutputs(raw: string | undefined): string[] {
  if (!raw) return []
  let list: unknown
  try {
    list = JSON.parse(raw)
  } catch {
    return []
  }
  if (!Array.isArray(list)) return []
  return list
    .filter((p): p is string => typeof p === 'string')
    .map((p) =>
      path.posix
        .normalize(p.replace(/\\/g, '/'))
        .replace(/^(\.\.(\/|$))+/, '')
        .replace(/^\/+/, ''),
    )
    .filter((p) => p && p !== '.' && !p.split('/').includes('..'))
}

