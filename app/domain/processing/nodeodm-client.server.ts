/**
 * A NodeODM (or ClusterODM) node over HTTP. NodeODM answers most failures with HTTP 200 and
 * `{ error }`: every answer is read with a size limit and an `error` key is a failure. Every
 * call goes through `outboundRequest` (node:http: a deadline, a minimum rate, back-pressure
 * that survives a node closing mid-body); a node that cannot be reached, answers 5xx or garbage is a
 * `NodeOdmError` of kind `unreachable`, a task the node does not know is `not_found`, and
 * anything else the node refused is `refused` (with `noRetry` when the node says so).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  OutboundError,
  outboundRequest,
  readBodyWithin,
  reasonOf,
  type OutboundOptions,
  type OutboundResponse,
} from '#app/lib/http/outbound.server.ts'
import { z } from 'zod'

import { endpoint, redactIn, shownEndpoint as shown, type NodeAddress } from './node-url.server.ts'

export type { NodeAddress } from './node-url.server.ts'

export type NodeOdmErrorKind = 'unreachable' | 'not_found' | 'refused'

export class NodeOdmError extends Error {
  constructor(
    readonly kind: NodeOdmErrorKind,
    message: string,
    readonly noRetry = false,
    /** The HTTP status when the node answered with an error (5xx), null when it could not be reached. */
    readonly httpStatus: number | null = null,
  ) {
    super(message)
    this.name = 'NodeOdmError'
  }
}

const JSON_LIMIT = 1024 * 1024
const OUTPUT_LIMIT = 4 * 1024 * 1024
/** A JSON call, start to last byte: a node answering a byte a second fails here. */
const CALL_DEADLINE_MS = 15_000
/** `/info` is the health check and the probe when a node is added: "within a few seconds". */
const INFO_DEADLINE_MS = 6_000

/** Limits on a long transfer (a batch of photos up, all.zip down). */
export interface TransferLimits {
  deadlineMs: number
  /** The slowest accepted transfer: this many bytes per window, else the call fails. */
  minBytesPerWindow: number
  rateWindowMs: number
  signal?: AbortSignal
}
/** 16 KB/s over 30 s: a link that slow cannot carry a survey; a stalled node fails in a minute. */
const SLOWEST = { minBytesPerWindow: 480 * 1024, rateWindowMs: 30_000 }
/** A batch of photos may take a while on a slow link; it is still bounded. */
const UPLOAD_DEADLINE_MS = 30 * 60 * 1000
/** The answer to an upload or a download's headers: the node is writing or finding files. */
const ANSWER_WITHIN_MS = 120_000

type CallOptions = Omit<OutboundOptions, 'deadlineMs'> & { deadlineMs?: number }

/** One call to the node; a failure to reach it is `unreachable` naming where (never the token). */
async function send(url: URL, options: CallOptions) {
  try {
    return await outboundRequest(url, { ...options, deadlineMs: options.deadlineMs ?? CALL_DEADLINE_MS })
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error
    throw new NodeOdmError('unreachable', `Could not reach ${shown(url)}: ${reasonOf(error)}`)
  }
}

/** The body as text, refused past `limit` bytes (the rest is not read). */
async function readLimited(response: OutboundResponse, limit: number, url: URL, signal?: AbortSignal) {
  try {
    return (await readBodyWithin(response, limit)).toString('utf8')
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error
    if (error instanceof OutboundError && error.kind === 'too_large')
      throw new NodeOdmError('unreachable', `${shown(url)} sent an answer over ${limit} bytes`)
    if (error instanceof OutboundError && error.kind !== 'network')
      throw new NodeOdmError('unreachable', `${shown(url)} answered too slowly: ${error.message}`)
    throw new NodeOdmError('unreachable', `${shown(url)} broke off its answer: ${reasonOf(error)}`)
  }
}

const NOT_FOUND = /not found|no such task|invalid uuid/i

/** An answer's JSON, or the failure it stands for (the node's own words, its secrets redacted). */
async function readAnswer(
  response: OutboundResponse,
  url: URL,
  node: NodeAddress,
  limit = JSON_LIMIT,
  signal?: AbortSignal,
): Promise<unknown> {
  const text = await readLimited(response, limit, url, signal)
  if (response.status >= 500) {
    throw new NodeOdmError(
      'unreachable',
      `${shown(url)} answered HTTP ${response.status}`,
      false,
      response.status,
    )
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    if (response.status === 404) throw new NodeOdmError('not_found', `${shown(url)} answered HTTP 404`)
    throw new NodeOdmError('unreachable', `${shown(url)} answered HTTP ${response.status} without JSON`)
  }
  if (body && typeof body === 'object' && 'error' in body && (body as { error: unknown }).error) {
    const error = (body as { error: unknown; noRetry?: unknown }).error
    const message = redactIn(String(typeof error === 'string' ? error : JSON.stringify(error)), node)
    const noRetry = (body as { noRetry?: unknown }).noRetry === true
    throw new NodeOdmError(NOT_FOUND.test(message) ? 'not_found' : 'refused', message.slice(0, 500), noRetry)
  }
  if (response.status === 404) throw new NodeOdmError('not_found', `${shown(url)} answered HTTP 404`)
  if (response.status >= 400) {
    throw new NodeOdmError('refused', `${shown(url)} answered HTTP ${response.status}`)
  }
  return body
}

function parsed<S extends z.ZodTypeAny>(schema: S, body: unknown, url: URL): z.infer<S> {
  const result = schema.safeParse(body)
  if (!result.success)
    throw new NodeOdmError('unreachable', `${shown(url)} sent an answer Kestrel cannot read`)
  return result.data
}

async function call<S extends z.ZodTypeAny>(
  node: NodeAddress,
  url: URL,
  schema: S,
  options: CallOptions & { limit?: number } = {},
): Promise<z.infer<S>> {
  const response = await send(url, options)
  return parsed(schema, await readAnswer(response, url, node, options.limit, options.signal), url)
}

function postJson<S extends z.ZodTypeAny>(node: NodeAddress, route: string, body: unknown, schema: S) {
  return call(node, endpoint(node, route), schema, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

const InfoSchema = z.object({
  version: z.string().max(100).optional(),
  taskQueueCount: z.number().int().min(0).catch(0),
  maxImages: z.number().int().positive().nullable().optional().catch(null),
  engine: z.string().max(100).optional(),
  engineVersion: z.string().max(100).optional(),
})

export function getNodeInfo(node: NodeAddress, options: { deadlineMs?: number; signal?: AbortSignal } = {}) {
  return call(node, endpoint(node, '/info'), InfoSchema, {
    deadlineMs: options.deadlineMs ?? INFO_DEADLINE_MS,
    signal: options.signal,
  })
}

const OptionSchema = z.object({
  name: z.string().max(100),
  type: z.string().max(20),
  value: z.unknown().optional(),
  domain: z.unknown().optional(),
  help: z.string().max(4000).optional(),
})
export type NodeOption = z.infer<typeof OptionSchema>

export function getNodeOptions(node: NodeAddress): Promise<NodeOption[]> {
  return call(node, endpoint(node, '/options'), z.array(OptionSchema).max(1000))
}

/** One ODM option as NodeODM takes it: `[{ name, value }]`, a JSON string in a form field. */
export interface OdmOption {
  name: string
  value: unknown
}

const boundaryOf = () => `----kestrel${crypto.randomBytes(12).toString('hex')}`

/** A multipart part's head; names are ours or cleaned (`nodeFileName`), so no quoting is needed. */
function partHead(boundary: string, name: string, filename?: string) {
  const file = filename === undefined ? '' : `; filename="${filename}"`
  const type = filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n'
  return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file}\r\n${type}\r\n`)
}

export async function initTask(
  node: NodeAddress,
  input: { name: string; options: OdmOption[]; webhook?: string },
): Promise<string> {
  // NodeODM reads init's fields as multipart form data only.
  const boundary = boundaryOf()
  const fields: Array<[string, string]> = [
    ['name', input.name],
    ['options', JSON.stringify(input.options)],
    ...(input.webhook ? [['webhook', input.webhook] as [string, string]] : []),
  ]
  const body = Buffer.concat([
    ...fields.flatMap(([name, value]) => [partHead(boundary, name), Buffer.from(`${value}\r\n`)]),
    Buffer.from(`--${boundary}--\r\n`),
  ])
  const answer = await call(
    node,
    endpoint(node, '/task/new/init'),
    z.object({ uuid: z.string().min(1).max(64) }),
    {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    },
  )
  return answer.uuid
}

export interface UploadFile {
  path: string
  /** The name the node sees (unique within the task). */
  name: string
  size: number
}

/** A file name NodeODM and ODM take as it is: letters, digits, dot, dash, underscore. */
function nodeFileName(name: string) {
  const clean = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_')
  return clean.slice(-120) || 'file'
}

/**
 * Sends files to a task in one multipart request (field `images`), each streamed from disk
 * with back-pressure, so memory stays flat whatever the batch weighs.
 */
export async function uploadFiles(
  node: NodeAddress,
  uuid: string,
  files: UploadFile[],
  signal?: AbortSignal,
  limits: Partial<TransferLimits> = {},
) {
  const url = endpoint(node, `/task/new/upload/${encodeURIComponent(uuid)}`)
  const boundary = boundaryOf()
  const heads = files.map((f) => partHead(boundary, 'images', nodeFileName(f.name)))
  const tail = Buffer.from(`--${boundary}--\r\n`)
  const length = heads.reduce((sum, h, i) => sum + h.length + files[i]!.size + 2, tail.length)
  async function* body() {
    for (const [i, file] of files.entries()) {
      yield heads[i]!
      let sent = 0
      for await (const chunk of fs.createReadStream(file.path, { highWaterMark: 256 * 1024 })) {
        sent += (chunk as Buffer).length
        yield chunk as Buffer
      }
      // A photo that changed size since it was counted would corrupt the request.
      if (sent !== file.size) throw new Error(`${file.name} changed while it was sent`)
      yield Buffer.from('\r\n')
    }
    yield tail
  }
  await call(node, url, z.unknown(), {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(length),
    },
    body: Readable.from(body(), { objectMode: false }),
    answerWithinMs: ANSWER_WITHIN_MS,
    deadlineMs: UPLOAD_DEADLINE_MS,
    ...SLOWEST,
    ...limits,
    signal: signal ?? limits.signal,
  })
}

export async function commitTask(node: NodeAddress, uuid: string) {
  await call(node, endpoint(node, `/task/new/commit/${encodeURIComponent(uuid)}`), z.unknown(), {
    method: 'POST',
  })
}

const TaskInfoSchema = z.object({
  uuid: z.string().optional(),
  status: z.object({
    code: z.number().int(),
    errorMessage: z.string().max(4000).optional().nullable(),
  }),
  progress: z.number().min(0).max(100).catch(0).optional(),
  imagesCount: z.number().int().min(0).optional(),
  processingTime: z.number().optional(),
})

export const TASK_STATUS = { queued: 10, running: 20, failed: 30, completed: 40, canceled: 50 } as const

export function getTaskInfo(node: NodeAddress, uuid: string) {
  return call(node, endpoint(node, `/task/${encodeURIComponent(uuid)}/info`), TaskInfoSchema)
}

/** The console lines from `line` on (at most 4 MB of them). */
export async function getTaskOutput(node: NodeAddress, uuid: string, line: number): Promise<string[]> {
  const url = endpoint(node, `/task/${encodeURIComponent(uuid)}/output`, { line: String(line) })
  const lines = await call(node, url, z.array(z.unknown()).max(100_000), { limit: OUTPUT_LIMIT })
  return lines.map((l) => String(l).slice(0, 1000))
}

export async function cancelTask(node: NodeAddress, uuid: string) {
  await postJson(node, '/task/cancel', { uuid }, z.unknown())
}

export async function removeTask(node: NodeAddress, uuid: string) {
  await postJson(node, '/task/remove', { uuid }, z.unknown())
}

/** Ten minutes, plus the archive at 256 KB/s, at most a day. */
function downloadDeadline(maxBytes: number) {
  return Math.min(24 * 3600_000, 600_000 + Math.ceil(maxBytes / 256))
}

/**
 * Streams the task's all.zip (the only asset NodeODM serves; it ignores Range) to `target`
 * with back-pressure, refused past `maxBytes`. A JSON answer instead of a ZIP is the node's error.
 * `watch` is told the announced length (Content-Length, or null) before the body and the bytes
 * so far after each chunk; what it throws stops the download and is thrown as it is (a disk filling up).
 */
export async function downloadAllZip(
  node: NodeAddress,
  uuid: string,
  target: string,
  maxBytes: number,
  signal?: AbortSignal,
  watch?: (received: number, announced: number | null) => void,
  limits: Partial<TransferLimits> = {},
) {
  const url = endpoint(node, `/task/${encodeURIComponent(uuid)}/download/all.zip`)
  const stop = signal ?? limits.signal
  const response = await send(url, {
    answerWithinMs: ANSWER_WITHIN_MS,
    deadlineMs: downloadDeadline(maxBytes),
    ...SLOWEST,
    ...limits,
    signal: stop,
  })
  const type = String(response.headers['content-type'] ?? '')
  if (response.status !== 200 || type.includes('json')) {
    await readAnswer(response, url, node, JSON_LIMIT, stop)
    throw new NodeOdmError('refused', `${shown(url)} sent no archive (HTTP ${response.status})`)
  }
  const length = String(response.headers['content-length'] ?? '')
  const announced = /^\d{1,16}$/.test(length) ? Number(length) : null
  if (announced !== null && announced > maxBytes) {
    response.body.destroy()
    throw new NodeOdmError('refused', `all.zip is larger than ${maxBytes} bytes`)
  }
  let stoppedBy: { error: unknown } | null = null
  const check = (received: number) => {
    try {
      watch?.(received, announced)
    } catch (error) {
      stoppedBy = { error }
      throw error
    }
  }
  try {
    check(0)
  } catch (error) {
    response.body.destroy()
    throw error
  }
  let size = 0
  try {
    await pipeline(
      response.body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length
          check(size)
          if (size > maxBytes) throw new NodeOdmError('refused', `all.zip is larger than ${maxBytes} bytes`)
          yield chunk
        }
      },
      fs.createWriteStream(target),
    )
  } catch (error) {
    if (stoppedBy) throw (stoppedBy as { error: unknown }).error
    if (error instanceof NodeOdmError) throw error
    if (stop?.aborted) throw stop.reason ?? error
    throw new NodeOdmError('unreachable', `The download of all.zip broke off: ${reasonOf(error)}`)
  }
  return size
}
