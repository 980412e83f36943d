/**
 * Remix behind Express, as `@remix-run/express` does it but with back-pressure: a response
 * body is read only as fast as the client takes it (Remix's own writer reads it as fast as it
 * comes and leaves the rest in memory), and a client that goes cancels the body, so a
 * download's work (a ZIP being built, a file being read) stops with it.
 */
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  type AppLoadContext,
  type ServerBuild,
} from '@remix-run/node'
import type express from 'express'

interface RemixHandlerOptions {
  build: () => Promise<ServerBuild>
  mode: string
  getLoadContext: (req: express.Request, res: express.Response) => AppLoadContext
}

function remixHeaders(incoming: express.Request['headers']) {
  const headers = new Headers()
  for (const [key, values] of Object.entries(incoming)) {
    if (!values) continue
    if (Array.isArray(values)) for (const value of values) headers.append(key, value)
    else headers.set(key, values)
  }
  return headers
}

/** The request Remix sees; its signal aborts when the client goes before the answer is sent. */
function remixRequest(req: express.Request, res: express.Response) {
  // req.hostname honours "trust proxy"; the port comes from the forwarded host or Host.
  const portOf = (host: string | undefined) => Number.parseInt(host?.split(':')[1] ?? '', 10)
  const forwardedPort = portOf(req.get('X-Forwarded-Host'))
  const hostPort = portOf(req.get('host'))
  const port = Number.isSafeInteger(forwardedPort)
    ? forwardedPort
    : Number.isSafeInteger(hostPort)
      ? hostPort
      : ''
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ''}${req.originalUrl}`)
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  const init: RequestInit & { duplex?: 'half' } = {
    method: req.method,
    headers: remixHeaders(req.headers),
    signal: controller.signal,
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(req)
    init.duplex = 'half'
  }
  return new Request(url.href, init)
}

/** Resolves when `res` can take more (or will never again). */
function drained(res: express.Response) {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/** Writes `response` to `res`, waiting for the client whenever its buffer is full. */
async function sendResponse(res: express.Response, response: Response) {
  res.statusMessage = response.statusText
  res.status(response.status)
  for (const [key, value] of response.headers.entries()) res.append(key, value)
  if (/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) res.flushHeaders()
  if (!response.body) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  const cancel = () => {
    if (!res.writableFinished) reader.cancel().catch(() => {})
  }
  res.once('close', cancel)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (res.destroyed) return
      if (done) {
        res.end()
        return
      }
      const more = res.write(value)
      // compression() buffers until flushed; a stream (server-rendered HTML) is sent as it comes.
      ;(res as express.Response & { flush?: () => void }).flush?.()
      if (!more) await drained(res)
    }
  } catch (error) {
    if (res.destroyed) return
    res.destroy(error as Error)
    throw error
  } finally {
    res.off('close', cancel)
  }
}

export function createRemixHandler(options: RemixHandlerOptions): express.RequestHandler {
  const handle = createRequestHandler(options.build, options.mode)
  return async (req, res, next) => {
    try {
      const request = remixRequest(req, res)
      const response = await handle(request, options.getLoadContext(req, res))
      await sendResponse(res, response)
    } catch (error) {
      next(error)
    }
  }
}
