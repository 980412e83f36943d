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

import { purgeExpiredAuthRecords } from './app/domain/auth/accounts.server.ts'
import { SESSION_COOKIE_NAME } from './app/domain/auth/session.server.ts'
import { claimServerPidFile, startBackupSchedule } from './app/domain/backups/backup.server.ts'
import { assertSafeProductionConfig, getEnv } from './app/domain/config/env.server.ts'
import { closeDb, getDb, getSqlite } from './app/domain/db/db.server.ts'
import { sweepStorage } from './app/domain/files/file-storage.server.ts'
import { createTusServer, startTusCleanup, TUS_PATH } from './app/domain/files/tus.server.ts'
import { checkDeclaredBody, redactUrlForLog } from './app/domain/http/request-limits.server.ts'
import {
  cacheControlFor,
  carriesSession,
  PERMISSIONS_POLICY,
  usesHttps,
} from './app/domain/http/response-headers.server.ts'
import { startDailyJobs } from './app/domain/jobs/daily.server.ts'
import { seedDemo } from './db/seed.ts'

installGlobals({ nativeFetch: true })

const env = getEnv()
assertSafeProductionConfig()
const isProduction = env.NODE_ENV === 'production'
const BUILD_PATH = path.resolve('build/index.js')

// Migrations before anything listens (decisions.md; fly's release machine has no volume).
getDb()
// `npm run restore` refuses while this marker names a live process (ADR 064).
const releasePidFile = claimServerPidFile()
// A consistent online backup a day into DATA_DIR/backups, the last 7 kept (ADR 064).
const stopBackups = startBackupSchedule(getSqlite)
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
const streetTileOrigin = new URL(env.STREET_TILE_URL.replace(/\{[a-z]\}/g, '0')).origin
app.use((_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString('hex')
  next()
})
app.use(
  helmet({
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    // HSTS only when the public address is https (ADR 071).
    strictTransportSecurity: usesHttps(env.APP_URL) ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'connect-src': ["'self'", ...(isProduction ? [] : ['ws:'])],
        'img-src': ["'self'", 'data:', 'blob:', tileOrigin, streetTileOrigin],
        'script-src': [
          "'strict-dynamic'",
          (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
        ],
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

// Browser features the app never uses are off (ADR 071).
app.use((_req, res, next) => {
  res.setHeader('Permissions-Policy', PERMISSIONS_POLICY)
  next()
})

// Signed-in and /api answers are never stored by a cache or the back/forward history (ADR 071).
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
// (Restored: the feat/trust merge into main had dropped these lines, so no JS or CSS loaded.)
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
  // Answer at once and close: the unread body is never parsed (the client may still be sending).
  res.setHeader('Connection', 'close')
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
const stopDailyJobs = startDailyJobs()

if (!isProduction) {
  const chokidar = await import('chokidar')
  chokidar.watch(path.resolve('build/version.txt'), { ignoreInitial: true }).on('all', async () => {
    build = await importBuild()
    broadcastDevReady(build)
  })
}

// Expired sessions and spent or expired reset links are purged every hour (ADR 071).
const purgeTimer = setInterval(
  () => {
    try {
      purgeExpiredAuthRecords()
    } catch (error) {
      console.error('[auth] purge failed', error)
    }
  },
  60 * 60 * 1000,
)
purgeTimer.unref()
purgeExpiredAuthRecords()

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) console.error(err)
  clearInterval(purgeTimer)
  stopDailyJobs()
  stopTusCleanup()
  stopBackups()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  closeDb()
  releasePidFile()
})
