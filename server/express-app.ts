/**
 * The Express app in front of the Remix request handler, as server.ts runs it: security
 * headers, static files, the access log, the write budget (ADR 130), resumable uploads,
 * the body-size gate and Remix. A function of its parts so the integration tests start
 * the very same app on a free port.
 */
import crypto from 'node:crypto'
import type { AppLoadContext, ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import helmet from 'helmet'
import morgan from 'morgan'

import { runWithLoadContext } from '../app/domain/auth/request-session.server.ts'
import { lookupSession, SESSION_COOKIE_NAME } from '../app/domain/auth/session.server.ts'
import { TUS_PATH, type TusServer } from '../app/domain/files/tus.server.ts'
import { getEnv } from '../app/lib/config/env.server.ts'
import { CROSS_SITE_MESSAGE, isSameOriginRequest } from '../app/lib/http/origin.server.ts'
import { checkDeclaredBody, redactUrlForLog } from '../app/lib/http/request-limits.server.ts'
import {
  cacheControlFor,
  carriesSession,
  hstsFor,
  isThreeDPagePath,
  PERMISSIONS_POLICY,
} from '../app/lib/http/response-headers.server.ts'
import { createToastHeaders } from '../app/lib/http/toast.server.ts'
import {
  checkWriteBudget,
  WRITE_LIMIT_TITLE,
  WRITE_METHODS,
  writeKindOf,
} from '../app/lib/http/write-limits.server.ts'
import { bucketOrigin, s3SettingsFrom } from '../app/lib/storage/s3-client.server.ts'
import { createRemixHandler } from './remix-handler.ts'

export interface ExpressAppOptions {
  /** The Remix build (a function, so a dev rebuild is picked up). */
  build: () => Promise<ServerBuild>
  tus: TusServer
  /** Remix's mode; the environment's NODE_ENV by default. */
  mode?: string
}

/**
 * What Remix hands every loader and action (and the request scope the auth guards read, ADR
 * 220): the client's address, the CSP nonce, and a write's session lookup when the write
 * budget made one.
 */
function loadContextOf(req: express.Request, res: express.Response): AppLoadContext {
  return {
    clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    cspNonce: res.locals.cspNonce as string,
    session: res.locals.session as AppLoadContext['session'],
  }
}

/** Where a refused page write goes back to: the posting page (same origin), else its own path. */
function backTo(req: express.Request): string {
  const own = `${req.protocol}://${req.get('host')}`
  const referer = req.get('referer')
  let target: URL | null = null
  if (referer) {
    try {
      const url = new URL(referer)
      if (url.origin === own || url.origin === new URL(getEnv().APP_URL ?? own).origin) target = url
    } catch {
      target = null
    }
  }
  target ??= new URL(req.originalUrl, own)
  target.searchParams.delete('_data')
  return target.pathname + target.search
}

export function createExpressApp(options: ExpressAppOptions): express.Express {
  const env = getEnv()
  const isProduction = env.NODE_ENV === 'production'
  const app = express()
  app.disable('x-powered-by')
  // Only as many proxy hops as configured are trusted for the client address and scheme (1 on
  // Fly, none by default), so a client can't pick its own address with X-Forwarded-For.
  app.set('trust proxy', env.TRUST_PROXY)
  // Remix's Express adapter takes the host name from a trusted X-Forwarded-Host but the port
  // from Host (or from an untrusted X-Forwarded-Host), so behind a proxy that rewrites Host
  // the request's origin came out wrong and every page post was refused. One host, decided
  // here: the forwarded one when the proxy is trusted, else the connection's own.
  app.use((req, _res, next) => {
    const forwarded = req.get('X-Forwarded-Host')
    if (forwarded) {
      const trust = req.app.get('trust proxy fn') as (address: string | undefined, hop: number) => boolean
      if (trust(req.socket.remoteAddress, 0)) req.headers.host = forwarded.split(',')[0]!.trim()
      delete req.headers['x-forwarded-host']
    }
    next()
  })
  app.use(compression())

  const tileOrigin = new URL(env.TILE_URL.replace(/\{[a-z]\}/g, '0')).origin
  // The street map the planner falls back to when satellite tiles fail.
  const streetTileOrigin = new URL(env.STREET_TILE_URL.replace(/\{[a-z]\}/g, '0')).origin
  // Evicted viewing copies may be read straight from the bucket (S3_PRESIGNED_VIEWS).
  const bucket = env.FILE_STORE === 's3' && env.S3_PRESIGNED_VIEWS ? s3SettingsFrom(env) : null
  const bucketOrigins = bucket ? [bucketOrigin(bucket)] : []
  app.use((_req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString('hex')
    next()
  })
  // The 3D pages alone may compile WebAssembly (laz-perf decodes their point clouds; still no
  // JavaScript eval) and read blob: URLs (GLTFLoader's embedded textures); no other page can.
  const contentSecurityPolicy = (threeD: boolean) =>
    helmet.contentSecurityPolicy({
      directives: {
        'default-src': ["'self'"],
        // The offline job pack fetches map tiles (page and service worker).
        'connect-src': [
          "'self'",
          ...(threeD ? ['blob:'] : []),
          tileOrigin,
          ...bucketOrigins,
          ...(isProduction ? [] : ['ws:']),
        ],
        'img-src': ["'self'", 'data:', 'blob:', tileOrigin, streetTileOrigin, ...bucketOrigins],
        'script-src': [
          "'strict-dynamic'",
          ...(threeD ? ["'wasm-unsafe-eval'"] : []),
          (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
        ],
        'style-src': ["'self'", "'unsafe-inline'"],
        'font-src': ["'self'", 'data:'],
        // The checkout form posts to PayFast (or our own simulator).
        'form-action': ["'self'", 'https://sandbox.payfast.co.za', 'https://www.payfast.co.za'],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': null,
      },
    })
  const pageCsp = contentSecurityPolicy(false)
  const threeDCsp = contentSecurityPolicy(true)
  app.use(
    helmet({
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'same-origin' },
      // HSTS is set below, only on https requests.
      strictTransportSecurity: false,
      contentSecurityPolicy: false,
    }),
  )
  app.use((req, res, next) => (isThreeDPagePath(req.path) ? threeDCsp : pageCsp)(req, res, next))

  // Browser features the app never uses are off; HSTS over https only.
  app.use((req, res, next) => {
    res.setHeader('Permissions-Policy', PERMISSIONS_POLICY)
    const hsts = hstsFor(req.secure)
    if (hsts) res.setHeader('Strict-Transport-Security', hsts)
    next()
  })

  // Signed-in and /api answers are never stored by a cache or the back/forward history.
  app.use((req, res, next) => {
    const signedIn = carriesSession(
      { cookie: req.headers.cookie, sessionHeader: req.get('x-session-id') },
      SESSION_COOKIE_NAME,
    )
    const writeHead = res.writeHead
    res.writeHead = function (this: express.Response, ...args: Parameters<typeof writeHead>) {
      const current = res.getHeader('Cache-Control')
      const next = cacheControlFor({
        path: req.path,
        signedIn,
        current: typeof current === 'string' ? current : null,
      })
      if (next) res.setHeader('Cache-Control', next)
      return writeHead.apply(this, args)
    } as typeof writeHead
    next()
  })

  // Static assets: fingerprinted build output is immutable; the rest caches for an hour.
  app.use('/build', express.static('public/build', { immutable: true, maxAge: '1y' }))
  app.use(express.static('public', { maxAge: '1h' }))
  app.use('/build', (_req, res) => res.status(404).end())

  // Access log without query strings or reset tokens.
  morgan.token('safe-url', (req: express.Request) => redactUrlForLog(req.originalUrl || req.url))
  app.use(
    morgan(':method :safe-url :status :res[content-length] - :response-time ms', {
      skip: (req) => req.url === '/healthcheck' || (env.NODE_ENV === 'test' && !process.env.LOG_REQUESTS),
    }),
  )

  // A page write from another site is refused here with 403: Remix's own check
  // would throw (a 500) before the action could. A post accepted because its origin is
  // APP_URL's (a proxy rewrote Host) is passed on under that host, so Remix agrees.
  app.use((req, res, next) => {
    if (!WRITE_METHODS.has(req.method)) return next()
    if (req.path === '/api' || req.path.startsWith('/api/')) return next()
    const headers = new Headers()
    // What the origin rule reads: where the post says it comes from, and how it is signed in.
    for (const name of ['origin', 'sec-fetch-site', 'cookie', 'x-session-id']) {
      const value = req.get(name)
      if (value !== undefined) headers.set(name, value)
    }
    let own: Request
    try {
      own = new Request(`${req.protocol}://${req.get('host')}${req.originalUrl}`, { headers })
    } catch {
      res.status(400).json({ error: 'Bad request' })
      return
    }
    if (!isSameOriginRequest(own)) {
      res.setHeader('Connection', 'close')
      res.status(403).json({ error: CROSS_SITE_MESSAGE })
      return
    }
    const origin = headers.get('origin')
    if (origin && origin !== 'null') {
      const host = new URL(origin).host
      if (host !== req.headers.host) req.headers.host = host
    }
    next()
  })

  // Every write spends the account's (or, signed out, the address's) budget before any
  // route or tus sees it: 429 `{ error }` on the /api, a toast back on the page.
  // The session read for it is handed on, so the route's guard doesn't read it again.
  app.use((req, res, next) => {
    if (!writeKindOf(req.method, req.path)) return next()
    void (async () => {
      const session = await lookupSession({
        cookie: req.headers.cookie,
        sessionHeader: req.get('x-session-id'),
      })
      const check = await checkWriteBudget({
        method: req.method,
        path: req.path,
        userId: session?.user?.id ?? null,
        clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
      })
      if (check.ok) {
        if (session) res.locals.session = session
        return next()
      }
      // The unread body is never parsed (the client may still be sending).
      res.setHeader('Connection', 'close')
      res.setHeader('Retry-After', String(check.retryAfterSeconds))
      if (req.path === '/api' || req.path.startsWith('/api/')) {
        res.status(429).json({ error: check.message })
        return
      }
      const toast = await createToastHeaders({
        title: WRITE_LIMIT_TITLE,
        description: check.message,
        type: 'error',
      })
      res.append('Set-Cookie', toast.get('Set-Cookie')!)
      const back = backTo(req)
      if (req.query._data !== undefined) {
        // A Remix data request (JavaScript on): its redirect protocol.
        res.setHeader('X-Remix-Redirect', back)
        res.setHeader('X-Remix-Status', '303')
        res.status(204).end()
        return
      }
      res.redirect(303, back)
    })().catch(next)
  })

  // Resumable uploads (tus) stream straight to disk; they have their own size rules.
  app.all([TUS_PATH, `${TUS_PATH}/*`], (req, res, next) => {
    runWithLoadContext(loadContextOf(req, res), () => options.tus.server.handle(req, res)).catch(next)
  })

  // Bodies over their limit (or of unknown length) are refused before anything reads them.
  app.use((req, res, next) => {
    const check = checkDeclaredBody(req.method, req.path, {
      contentLength: req.headers['content-length'],
      transferEncoding: req.headers['transfer-encoding'],
      contentType: req.headers['content-type'],
    })
    if (check.ok) return next()
    // Answer at once and close: the unread body is never parsed (the client may still be sending).
    res.setHeader('Connection', 'close')
    res.status(check.status).json({ error: check.error })
  })

  // Share link pages and files send `Referrer-Policy: no-referrer` themselves; Remix
  // appends its headers, so the site-wide `same-origin` would be sent beside it.
  app.use('/s/', (_req, res, next) => {
    res.removeHeader('Referrer-Policy')
    next()
  })

  const handleRemix = createRemixHandler({
    build: options.build,
    mode: options.mode ?? env.NODE_ENV,
    getLoadContext: (_req, res) => res.locals.loadContext as AppLoadContext,
  })
  // The load context is built here, so Remix runs inside its request scope.
  app.all('*', (req, res, next) => {
    const context = loadContextOf(req, res)
    res.locals.loadContext = context
    return runWithLoadContext(context, () => handleRemix(req, res, next))
  })
  return app
}
