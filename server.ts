/**
 * The HTTP server: Express in front of the Remix request handler. Migrations run
 * before listen; SQLite closes on shutdown. Configuration: api.md "Configuration".
 */
import crypto from 'node:crypto'
import path from 'node:path'
import url from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import { broadcastDevReady, installGlobals, type ServerBuild } from '@remix-run/node'
import closeWithGrace from 'close-with-grace'
import compression from 'compression'
import express from 'express'
import helmet from 'helmet'
import morgan from 'morgan'
import { assertSafeProductionConfig, getEnv } from './app/domain/config/env.server.ts'
import { closeDb, getDb } from './app/domain/db/db.server.ts'
import { sweepStorage } from './app/domain/files/file-storage.server.ts'
import { createTusServer, startTusCleanup, TUS_PATH } from './app/domain/files/tus.server.ts'
import { checkDeclaredBody, redactUrlForLog } from './app/domain/http/request-limits.server.ts'
import { seedDemo } from './db/seed.ts'

installGlobals({ nativeFetch: true })

const env = getEnv()
assertSafeProductionConfig()
const isProduction = env.NODE_ENV === 'production'
const BUILD_PATH = path.resolve('build/index.js')

// Migrations before anything listens (decisions.md; fly's release machine has no volume).
getDb()
if (env.SEED === 'demo') await seedDemo()
// Whatever a crash left half-stored goes before anything listens (ADR 092).
const swept = await sweepStorage()
if (swept.tempFilesRemoved + swept.orphanFilesRemoved + swept.danglingRowsRemoved + swept.tusFilesRemoved) {
  console.log('[files] start-up sweep', swept)
}
const tus = createTusServer()
const stopTusCleanup = startTusCleanup(tus)

async function importBuild(): Promise<ServerBuild> {
  const stamp = isProduction ? '' : `?t=${Date.now()}`
  return import(url.pathToFileURL(BUILD_PATH).href + stamp)
}

let build = await importBuild()

const app = express()
app.disable('x-powered-by')
// Only as many proxy hops as configured are trusted for the client address (1 on Fly,
// none by default), so a client can't pick its own address with X-Forwarded-For.
app.set('trust proxy', env.TRUST_PROXY)
app.use(compression())

const tileOrigin = new URL(env.TILE_URL.replace(/\{[a-z]\}/g, '0')).origin
app.use((_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString('hex')
  next()
})
app.use(
  helmet({
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'connect-src': ["'self'", ...(isProduction ? [] : ['ws:'])],
        'img-src': ["'self'", 'data:', 'blob:', tileOrigin],
        'script-src': ["'strict-dynamic'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
        'style-src': ["'self'", "'unsafe-inline'"],
        'font-src': ["'self'", 'data:'],
        // The checkout form posts to PayFast (or our own simulator).
        'form-action': ["'self'", 'https://sandbox.payfast.co.za', 'https://www.payfast.co.za'],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': null,
      },
    },
  }),
)

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

// Resumable uploads (tus) stream straight to disk; they have their own size rules (ADR 093).
app.all([TUS_PATH, `${TUS_PATH}/*`], (req, res, next) => {
  tus.server.handle(req, res).catch(next)
})

// Bodies over their limit (or of unknown length) are refused before anything reads them.
app.use((req, res, next) => {
  const check = checkDeclaredBody(req.method, req.path, {
    contentLength: req.headers['content-length'],
    transferEncoding: req.headers['transfer-encoding'],
  })
  if (check.ok) return next()
  res.status(check.status).json({ error: check.error })
})

app.all(
  '*',
  createRequestHandler({
    build: async () => build,
    mode: env.NODE_ENV,
    getLoadContext: (req, res) => ({
      clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
      cspNonce: res.locals.cspNonce as string,
    }),
  }),
)

const server = app.listen(env.PORT, () => {
  console.log(`Kestrel listening on http://localhost:${env.PORT}`)
  if (!isProduction) broadcastDevReady(build)
})

if (!isProduction) {
  const chokidar = await import('chokidar')
  chokidar.watch(path.resolve('build/version.txt'), { ignoreInitial: true }).on('all', async () => {
    build = await importBuild()
    broadcastDevReady(build)
  })
}

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) console.error(err)
  stopTusCleanup()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  closeDb()
})
