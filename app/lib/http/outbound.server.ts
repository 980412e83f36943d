/**
 * Every HTTP call Kestrel makes to another server (processing nodes, PayFast) goes through
 * here, on node:http instead of fetch. Every undici that runs on Node 20 (Node's own fetch,
 * and the 6.x that Remix's installGlobals puts in place) kills the process when a peer closes
 * the connection while a response body is held back by back-pressure (undici #5360, fixed by
 * #5474 only in undici 8.6+, which needs Node 22.19). node:http pauses the socket instead.
 *
 * A call has an overall deadline (connect to last byte), a minimum transfer rate while bytes
 * are due, a limit on the wait for the answer once the request is sent, and an optional
 * caller signal (one listener, removed at the end: no AbortSignal.any chains).
 */
import http from 'node:http'
import https from 'node:https'
import { pipeline, type Readable } from 'node:stream'

export type OutboundFailure = 'deadline' | 'too_slow' | 'no_answer' | 'too_large' | 'network'

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message)
    this.name = 'OutboundError'
  }
}

export interface OutboundOptions {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer | Readable
  /** Everything, from connecting to the answer's last byte. */
  deadlineMs: number
  /** The answer's headers must come this soon after the request's last byte (default: the deadline). */
  answerWithinMs?: number
  /** Bytes each `rateWindowMs` must move while the transfer is due (not while we hold the body back). */
  minBytesPerWindow?: number
  rateWindowMs?: number
  signal?: AbortSignal
}

export interface OutboundResponse {
  status: number
  headers: http.IncomingHttpHeaders
  /** Read it (or destroy it): the deadline and rate checks run until it ends. */
  body: http.IncomingMessage
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`

/** A network error's code ("ECONNREFUSED") or message, never a URL. */
export function reasonOf(error: unknown) {
  const code = (error as { code?: unknown })?.code
  if (typeof code === 'string' && /^[A-Z_0-9]+$/.test(code)) return code
  return error instanceof Error ? error.message : String(error)
}

/**
 * Sends one request. Resolves at the answer's headers; the checks keep running while
 * `body` is read and stop when it ends or is destroyed. Credentials in the URL go as Basic auth.
 */
export function outboundRequest(url: URL, options: OutboundOptions): Promise<OutboundResponse> {
  const { method = 'GET', body, deadlineMs, signal, rateWindowMs = 10_000 } = options
  const headers: Record<string, string> = { ...options.headers }
  if (url.username || url.password) {
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`
  }
  if (typeof body === 'string' || Buffer.isBuffer(body))
    headers['content-length'] = String(Buffer.byteLength(body))
  const target = new URL(url)
  target.username = ''
  target.password = ''
  target.hash = ''
  const send = target.protocol === 'https:' ? https.request : http.request

  return new Promise<OutboundResponse>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    let response: http.IncomingMessage | null = null
    let failed = false
    let answerTimer: NodeJS.Timeout | undefined
    // A fresh connection per call: no stale keep-alive socket, byte counts per call.
    const req = send(target, { method, headers, agent: false })

    const cleanup = () => {
      clearTimeout(deadline)
      clearTimeout(answerTimer)
      clearInterval(rateTimer)
      signal?.removeEventListener('abort', onAbort)
    }
    const fail = (error: unknown) => {
      if (failed) return
      failed = true
      cleanup()
      if (body && typeof body === 'object' && 'destroy' in body) body.destroy()
      req.destroy()
      // The caller may be mid-read: its read ends with this error.
      if (response) response.destroy(error as Error)
      else reject(error)
    }
    function onAbort() {
      fail(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })

    const deadline = setTimeout(
      () => fail(new OutboundError('deadline', `no complete answer within ${seconds(deadlineMs)}`)),
      deadlineMs,
    )
    let counted = 0
    let heldBefore = false
    const moved = () => (req.socket ? req.socket.bytesRead + req.socket.bytesWritten : 0)
    const rateTimer = setInterval(() => {
      const now = moved()
      const delta = now - counted
      counted = now
      const heldByUs = response && response.readableLength >= response.readableHighWaterMark
      const waitingForAnswer = req.writableFinished && !response
      const held = Boolean(heldByUs || waitingForAnswer)
      // The window in which a hold ends is partly a hold: only whole windows of reading are judged.
      const judged = !held && !heldBefore
      heldBefore = held
      if (!judged || !options.minBytesPerWindow) return
      if (delta < options.minBytesPerWindow) {
        const rate = `${Math.round(options.minBytesPerWindow / 1024)} KB per ${seconds(rateWindowMs)}`
        fail(new OutboundError('too_slow', `slower than ${rate}`))
      }
    }, rateWindowMs)
    for (const timer of [deadline, rateTimer]) timer.unref()

    req.on('error', (error) => fail(new OutboundError('network', reasonOf(error))))
    req.on('finish', () => {
      if (response || failed) return
      const wait = options.answerWithinMs ?? deadlineMs
      answerTimer = setTimeout(
        () => fail(new OutboundError('no_answer', `no answer within ${seconds(wait)} of the request`)),
        wait,
      )
      answerTimer.unref()
    })
    req.on('response', (res) => {
      clearTimeout(answerTimer)
      response = res
      // Errors after `fail` reach the caller's reader; this keeps an unread body from crashing us.
      res.on('error', () => {})
      res.on('close', cleanup)
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res })
    })

    if (body === undefined) req.end()
    else if (typeof body === 'string' || Buffer.isBuffer(body)) req.end(body)
    else pipeline(body, req, (error) => error && fail(error))
  })
}

/** The whole answer, refused past `limit` bytes (declared or streamed; the rest is not read). */
export async function readBodyWithin(res: OutboundResponse, limit: number): Promise<Buffer> {
  const tooLarge = () => new OutboundError('too_large', `an answer over ${limit} bytes`)
  if (Number(res.headers['content-length'] ?? 0) > limit) {
    res.body.destroy()
    throw tooLarge()
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) {
      res.body.destroy()
      throw tooLarge()
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
