/**
 * A NodeODM (or ClusterODM) node over HTTP. NodeODM answers most failures with HTTP 200 and
 * `{ error }`: every answer is read with a size limit and an `error` key is a failure. Every
 * call has a timeout; a node that cannot be reached, answers 5xx or garbage is a
 * `NodeOdmError` of kind `unreachable`, a task the node does not know is `not_found`, and
 * anything else the node refused is `refused` (with `noRetry` when the node says so).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { z } from 'zod'

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

export interface NodeAddress {
  url: string
  token: string | null
}

const JSON_LIMIT = 1024 * 1024
const OUTPUT_LIMIT = 4 * 1024 * 1024
const CALL_TIMEOUT_MS = 15_000
/** A batch of photos may take a while on a slow link; it is still bounded. */
const UPLOAD_TIMEOUT_MS = 30 * 60 * 1000
/** all.zip is streamed: the download fails when no byte arrives for this long. */
const DOWNLOAD_IDLE_MS = 120_000

/** The URL of an endpoint on the node (the node's URL may carry a path, as behind a proxy). */
export function endpoint(node: NodeAddress, route: string, query: Record<string, string> = {}) {
  const base = node.url.endsWith('/') ? node.url : `${node.url}/`
  const url = new URL(route.replace(/^\//, ''), base)
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
  if (node.token) url.searchParams.set('token', node.token)
  return url
}

/** The node's address without its token, for messages and logs. */
function shown(url: URL) {
  const copy = new URL(url)
  copy.searchParams.delete('token')
  return `${copy.origin}${copy.pathname}`
}

async function send(url: URL, init: RequestInit & { timeoutMs?: number }) {
  const { timeoutMs = CALL_TIMEOUT_MS, signal, ...rest } = init
  const timeout = AbortSignal.timeout(timeoutMs)
  try {
    return await fetch(url, {
      ...rest,
      redirect: 'error',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    })
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error
    const why = timeout.aborted ? `no answer within ${Math.round(timeoutMs / 1000)} s` : causeOf(error)
    throw new NodeOdmError('unreachable', `Could not reach ${shown(url)}: ${why}`)
  }
}

function causeOf(error: unknown) {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
}

/** The body as text, refused past `limit` bytes (the rest is not read). */
async function readLimited(response: Response, limit: number, url: URL) {
  const declared = Number(response.headers.get('content-length') ?? 0)
  if (declared > limit) {
    await response.body?.cancel().catch(() => {})
    throw new NodeOdmError('unreachable', `${shown(url)} sent an answer over ${limit} bytes`)
  }
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of (response.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength
      if (size > limit)
        throw new NodeOdmError('unreachable', `${shown(url)} sent an answer over ${limit} bytes`)
      chunks.push(Buffer.from(chunk))
    }
  } catch (error) {
    await response.body?.cancel().catch(() => {})
    if (error instanceof NodeOdmError) throw error
    throw new NodeOdmError('unreachable', `${shown(url)} broke off its answer: ${causeOf(error)}`)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const NOT_FOUND = /not found|no such task|invalid uuid/i

/** An answer's JSON, or the failure it stands for. */
async function readAnswer(response: Response, url: URL, limit = JSON_LIMIT): Promise<unknown> {
  const text = await readLimited(response, limit, url)
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
    const message = String(typeof error === 'string' ? error : JSON.stringify(error)).slice(0, 500)
    const noRetry = (body as { noRetry?: unknown }).noRetry === true
    throw new NodeOdmError(NOT_FOUND.test(message) ? 'not_found' : 'refused', message, noRetry)
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

async function getJson<S extends z.ZodTypeAny>(node: NodeAddress, route: string, schema: S, query = {}) {
  const url = endpoint(node, route, query)
  const response = await send(url, { method: 'GET' })
  return parsed(schema, await readAnswer(response, url), url)
}

async function postJson<S extends z.ZodTypeAny>(node: NodeAddress, route: string, body: unknown, schema: S) {
  const url = endpoint(node, route)
  const response = await send(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return parsed(schema, await readAnswer(response, url), url)
}

const InfoSchema = z.object({
  version: z.string().max(100).optional(),
  taskQueueCount: z.number().int().min(0).catch(0),
  maxImages: z.number().int().positive().nullable().optional().catch(null),
  engine: z.string().max(100).optional(),
  engineVersion: z.string().max(100).optional(),
})

export function getNodeInfo(node: NodeAddress) {
  return getJson(node, '/info', InfoSchema)
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
  return getJson(node, '/options', z.array(OptionSchema).max(1000))
}

/** One ODM option as NodeODM takes it: `[{ name, value }]`, a JSON string in a form field. */
export interface OdmOption {
  name: string
  value: unknown
}

export async function initTask(
  node: NodeAddress,
  input: { name: string; options: OdmOption[]; webhook?: string },
): Promise<string> {
  const url = endpoint(node, '/task/new/init')
  // NodeODM reads init's fields as multipart form data only.
  const form = new FormData()
  form.set('name', input.name)
  form.set('options', JSON.stringify(input.options))
  if (input.webhook) form.set('webhook', input.webhook)
  const response = await send(url, { method: 'POST', body: form })
  const answer = parsed(z.object({ uuid: z.string().min(1).max(64) }), await readAnswer(response, url), url)
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
) {
  const url = endpoint(node, `/task/new/upload/${encodeURIComponent(uuid)}`)
  const boundary = `----kestrel${crypto.randomBytes(12).toString('hex')}`
  const heads = files.map((f) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="${nodeFileName(f.name)}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
  )
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
  const response = await send(url, {
    method: 'POST',
    headers: {
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': String(length),
    },
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    duplex: 'half',
    signal,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  } as RequestInit & { duplex: 'half'; timeoutMs: number })
  await readAnswer(response, url)
}

export async function commitTask(node: NodeAddress, uuid: string) {
  const url = endpoint(node, `/task/new/commit/${encodeURIComponent(uuid)}`)
  const response = await send(url, { method: 'POST' })
  await readAnswer(response, url)
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
  return getJson(node, `/task/${encodeURIComponent(uuid)}/info`, TaskInfoSchema)
}

/** The console lines from `line` on (at most 4 MB of them). */
export async function getTaskOutput(node: NodeAddress, uuid: string, line: number): Promise<string[]> {
  const url = endpoint(node, `/task/${encodeURIComponent(uuid)}/output`, { line: String(line) })
  const response = await send(url, { method: 'GET' })
  const lines = parsed(z.array(z.unknown()).max(100_000), await readAnswer(response, url, OUTPUT_LIMIT), url)
  return lines.map((l) => String(l).slice(0, 1000))
}

export async function cancelTask(node: NodeAddress, uuid: string) {
  await postJson(node, '/task/cancel', { uuid }, z.unknown())
}

export async function removeTask(node: NodeAddress, uuid: string) {
  await postJson(node, '/task/remove', { uuid }, z.unknown())
}

/**
 * Streams the task's all.zip (the only asset NodeODM serves; it ignores Range) to `target`,
 * refused past `maxBytes`. A JSON answer instead of a ZIP is the node's error. `watch` is told
 * the announced length (Content-Length, or null) before the body and the bytes so far after
 * each chunk; what it throws stops the download and is thrown as it is (a disk filling up).
 */
export async function downloadAllZip(
  node: NodeAddress,
  uuid: string,
  target: string,
  maxBytes: number,
  signal?: AbortSignal,
  watch?: (received: number, announced: number | null) => void,
) {
  const url = endpoint(node, `/task/${encodeURIComponent(uuid)}/download/all.zip`)
  const idle = new AbortController()
  const response = await send(url, {
    method: 'GET',
    signal: signal ? AbortSignal.any([signal, idle.signal]) : idle.signal,
    timeoutMs: 24 * 60 * 60 * 1000,
  })
  const type = response.headers.get('content-type') ?? ''
  if (response.status !== 200 || type.includes('json')) {
    await readAnswer(response, url)
    throw new NodeOdmError('refused', `${shown(url)} sent no archive (HTTP ${response.status})`)
  }
  if (!response.body) throw new NodeOdmError('unreachable', `${shown(url)} sent an empty answer`)
  const length = response.headers.get('content-length')
  const announced = length !== null && /^\d{1,16}$/.test(length) ? Number(length) : null
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
    await response.body.cancel().catch(() => {})
    throw error
  }
  let timer = setTimeout(() => idle.abort(), DOWNLOAD_IDLE_MS)
  let size = 0
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream),
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          clearTimeout(timer)
          timer = setTimeout(() => idle.abort(), DOWNLOAD_IDLE_MS)
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
    if (signal?.aborted) throw signal.reason ?? error
    throw new NodeOdmError('unreachable', `The download of all.zip broke off: ${causeOf(error)}`)
  } finally {
    clearTimeout(timer)
  }
  return size
}
