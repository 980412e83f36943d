/**
 * Configuration from the environment. Every variable has a
 * working local default so `npm start` runs on a fresh machine. Read lazily, so tests
 * can set variables before the first use.
 */
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import { numberInput } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

/** The public development default; a production server refuses to start with it. */
export const DEV_SESSION_SECRET = 'kestrel-dev-secret-change-me'

/**
 * PayFast's published sandbox merchant: anyone can sign with it, so it is
 * accepted only with PAYFAST_MODE=sandbox (or the simulator, which never reaches PayFast).
 */
export const PAYFAST_SANDBOX_CREDENTIALS = {
  merchantId: '10000100',
  merchantKey: '46f0cd694581a',
  passphrase: 'jt7NOE43FZPn',
} as const

/** An optional setting: unset or blank is absent (a deployment's empty secret is not a value). */
const optionalText = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.string().trim().optional(),
)

/** The settings a bucket needs; S3_ENDPOINT (non-AWS) and S3_PREFIX are optional. */
export const S3_REQUIRED_SETTINGS = [
  'S3_REGION',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
] as const

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: numberInput(z.number().int().positive().default(3000)),
  /**
   * The address the server listens on: this machine only unless told otherwise (the
   * Dockerfile sets 0.0.0.0, where the platform's proxy must reach the app).
   */
  HOST: z.string().trim().min(1).max(255).default('127.0.0.1'),
  /**
   * How many reverse proxies in front of us may set X-Forwarded-For (1 on Fly). With none
   * (the default) the client address is the TCP peer, so it cannot be spoofed by a header.
   */
  TRUST_PROXY: numberInput(z.number().int().min(0).max(5).default(0)),
  DATABASE_PATH: z.string().default('data/kestrel.sqlite'),
  DATA_DIR: z.string().default('data/files'),
  MAIL_OUTBOX_DIR: z.string().default('data/outbox'),
  /** `local`: files live on DATA_DIR only. `s3`: every stored file is copied to the bucket and DATA_DIR is a cache. */
  FILE_STORE: z.enum(['local', 's3']).default('local'),
  /** An S3-compatible endpoint (R2, B2, MinIO); unset for AWS S3 itself. */
  S3_ENDPOINT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.string().url().optional(),
  ),
  S3_REGION: optionalText,
  S3_BUCKET: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** Keys go under this folder of the bucket (`kestrel/` → `kestrel/projects/1/….tif`). */
  S3_PREFIX: z
    .string()
    .default('')
    .transform((value) => value.trim().replace(/^\/+|\/+$/g, ''))
    .transform((value) => (value ? `${value}/` : '')),
  /**
   * With FILE_STORE=s3: a browser's read of an evicted viewing copy (after Kestrel's access check)
   * is redirected to a short-lived presigned bucket URL instead of passing through the server.
   * The bucket then needs the CORS rule of the README.
   */
  S3_PRESIGNED_VIEWS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** With FILE_STORE=s3: the most DATA_DIR keeps of stored files (GB; 0 keeps only files in use); safe, least recently read files are evicted beyond it. */
  FILE_CACHE_MAX_GB: numberInput(z.number().min(0).default(2)),
  /**
   * Litestream's replica of the database: s3://bucket/path (with the S3_* settings) or, for the
   * demo and tests, file:///dir. Read by scripts/start.sh, which runs the server under replication.
   */
  LITESTREAM_REPLICA_URL: z
    .string()
    .trim()
    .regex(
      /^(s3:\/\/[^/\s]+|file:\/\/\/\S+)/,
      'LITESTREAM_REPLICA_URL must be an s3://bucket/path or file:///dir URL',
    )
    .optional(),
  /**
   * Where Litestream serves its metrics (litestream.yml's `addr`, set by scripts/start.sh): the
   * server reads its replica's position there for the health panel and /healthcheck.
   */
  LITESTREAM_METRICS_ADDR: z
    .string()
    .trim()
    .regex(/^[\w.-]+:\d{1,5}$/, 'LITESTREAM_METRICS_ADDR must be host:port')
    .default('127.0.0.1:9090'),
  /** A replica this long without a sync is a warning on the health panel and a 503 from /healthcheck. */
  LITESTREAM_WARN_AFTER_SECONDS: numberInput(z.number().int().min(5).max(3600).default(60)),
  /** Uploads are refused (507) when they would leave less free space than this on DATA_DIR's disk. */
  MIN_FREE_DISK_MB: numberInput(z.number().int().min(0).default(512)),
  /** Unfinished resumable uploads are deleted after this many hours without progress. */
  TUS_EXPIRATION_HOURS: numberInput(z.number().positive().default(6)),
  /** The largest processed deliverable (bytes; default 20 GiB), still within MIN_FREE_DISK_MB. */
  DELIVERABLE_MAX_BYTES: numberInput(
    z
      .number()
      .int()
      .positive()
      .default(20 * 1024 ** 3),
  ),
  /** Raster viewing copies made at once (each is one GDAL child process). */
  RASTER_JOBS: numberInput(z.number().int().min(1).max(8).default(1)),
  /** GDAL child processes at once (measurements and conversions share them; 2–4 by the cores). */
  GDAL_PROCESSES: numberInput(
    z
      .number()
      .int()
      .min(2)
      .max(32)
      .default(Math.min(4, Math.max(2, os.availableParallelism()))),
  ),
  /** GDAL's block cache for each child process, MB (GDAL_CACHEMAX). */
  GDAL_CACHEMAX_MB: numberInput(z.number().int().min(16).max(4096).default(128)),
  /** A NodeODM or ClusterODM server to add as a processing node at start (optional; `?token=` kept as its token). */
  NODEODM_URL: z.string().url().optional(),
  /** Processing jobs worked on at once (uploads and imports; waiting on a node costs nothing). */
  PROCESSING_JOBS: numberInput(z.number().int().min(1).max(16).default(2)),
  /** How often a processing job asks its node how it is doing, ms. */
  PROCESSING_POLL_MS: numberInput(z.number().int().min(10).max(600_000).default(5000)),
  /** The most a node's all.zip may unpack to (bytes; default 100 GiB). */
  PROCESSING_MAX_UNZIPPED_BYTES: numberInput(
    z
      .number()
      .int()
      .positive()
      .default(100 * 1024 ** 3),
  ),
  /** A node silent this long mid-run: its job is sent to another online node. */
  PROCESSING_NODE_LOST_MINUTES: numberInput(
    z
      .number()
      .positive()
      .max(24 * 60)
      .default(5),
  ),
  /** Jobs with more photos than this are sent split into submodels (ODM's split-merge); 0: never. */
  PROCESSING_SPLIT_AT: numberInput(z.number().int().min(0).default(1000)),
  /** Photos per submodel of a split job (ODM's `split`). */
  PROCESSING_SPLIT_PHOTOS: numberInput(z.number().int().min(10).default(400)),
  /** Overlap between submodels, metres (ODM's `split-overlap`). */
  PROCESSING_SPLIT_OVERLAP_M: numberInput(z.number().min(0).default(150)),
  APP_URL: z.string().url().optional(),
  SESSION_SECRET: z.string().default(DEV_SESSION_SECRET),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Kestrel Aerial Survey <no-reply@kestrel.example>'),
  OPERATOR_EMAIL: z.string().default('operations@kestrel.example'),
  PAYFAST_MODE: z.enum(['simulator', 'sandbox', 'live']).default('simulator'),
  PAYFAST_MERCHANT_ID: z.string().default(PAYFAST_SANDBOX_CREDENTIALS.merchantId),
  PAYFAST_MERCHANT_KEY: z.string().default(PAYFAST_SANDBOX_CREDENTIALS.merchantKey),
  PAYFAST_PASSPHRASE: z.string().default(PAYFAST_SANDBOX_CREDENTIALS.passphrase),
  PAYFAST_VALIDATE_URL: z.string().optional(),
  PAYFAST_TRUSTED_IPS: z.string().default(''),
  SEED: z.string().optional(),
  /** `true` lets SEED=demo run under NODE_ENV=production (the `npm run demo` command). */
  ALLOW_DEMO_SEED: z.enum(['true', 'false']).default('false'),
  /** Multiplies every rate limit (tests raise it; production keeps 1). */
  RATE_LIMIT_MULTIPLIER: numberInput(z.number().positive().default(1)),
  TILE_URL: z
    .string()
    .default('https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}'),
  /** The street map the planner falls back to when satellite tiles fail. */
  STREET_TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  // Business identity: footer and invoices.
  COMPANY_LEGAL_NAME: z.string().default('Kestrel Aerial Survey (Pty) Ltd'),
  COMPANY_REG_NUMBER: z.string().default('2024/123456/07'),
  COMPANY_VAT_NUMBER: z.string().default('4123456789'),
  COMPANY_ADDRESS: z.string().default('Unit 4, Black River Park, 2 Fir Street, Observatory, Cape Town, 7925'),
  COMPANY_PHONE: z.string().default('+27 21 000 0000'),
  COMPANY_EMAIL: z.string().default('hello@kestrel.example'),
  COMPANY_DIRECTORS: z.string().default('A. Example, B. Example'),
  OPERATOR_NAME: z.string().default('Fynbos Flight Operations (Pty) Ltd'),
  OPERATOR_ROC_NUMBER: z.string().default('ROC-ZA-0000-DEMO'),
  // POPIA: the registered Information Officer and where our processors keep data (privacy notice).
  INFORMATION_OFFICER_NAME: z.string().default('A. Example'),
  INFORMATION_OFFICER_EMAIL: z.string().default('privacy@kestrel.example'),
  INFORMATION_OFFICER_PHONE: z.string().default('+27 21 000 0001'),
  HOSTING_PROCESSOR: z
    .string()
    .default('Fly.io, Inc. (United States), servers in Johannesburg, South Africa'),
  MAIL_PROCESSOR: z.string().default('Our SMTP e-mail delivery provider (European Union)'),
})

export type Env = z.infer<typeof EnvSchema>

let cached: Env | undefined

export function getEnv(): Env {
  if (!cached) {
    ensureSessionSecret()
    const parsed = EnvSchema.safeParse(process.env)
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
      throw new Error(`Invalid configuration: ${problems}`)
    }
    cached = parsed.data
  }
  return cached
}

/**
 * The local demo (`npm run demo`) runs a production build without a SESSION_SECRET: it
 * gets a random one for this process (sessions end at restart). Real deployments must set it.
 */
function ensureSessionSecret() {
  if (process.env.SESSION_SECRET) return
  if (
    process.env.NODE_ENV === 'production' &&
    process.env.SEED === 'demo' &&
    process.env.ALLOW_DEMO_SEED === 'true'
  ) {
    process.env.SESSION_SECRET = randomBytes(32).toString('hex')
    console.warn(
      '[config] SESSION_SECRET is not set: using a random secret for the demo; sessions will not survive a restart.',
    )
  }
}

/** Tests change the environment between files; this forgets the cached copy. */
export function resetEnvCache() {
  cached = undefined
}

export function appUrl(): string {
  const env = getEnv()
  return (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '')
}

export function isProduction() {
  return getEnv().NODE_ENV === 'production'
}

/** The local demo (`npm run demo`): a production build with the demo seed, not a real deployment. */
export function isDemo() {
  const env = getEnv()
  return env.SEED === 'demo' && env.ALLOW_DEMO_SEED === 'true'
}

/** http is fine only for this machine (a local production run, the e2e suite). */
function isLoopbackHost(hostname: string) {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/**
 * What makes this configuration unsafe to run, or an empty list. Production (other
 * than the local demo) needs its own SESSION_SECRET, an https APP_URL (loopback http
 * allowed) and a real gateway; `live` needs our own PayFast merchant in any environment.
 */
export function productionConfigProblems(): string[] {
  const env = getEnv()
  const problems: string[] = []
  if (env.NODE_ENV === 'production' && !isDemo()) {
    if (env.PAYFAST_MODE === 'simulator') {
      problems.push(
        'PAYFAST_MODE=simulator is for development and the local demo; set PAYFAST_MODE to sandbox or live in production.',
      )
    }
    if (
      env.SESSION_SECRET.split(',').some((secret) => !secret.trim() || secret.trim() === DEV_SESSION_SECRET)
    ) {
      problems.push(
        'SESSION_SECRET must be set to a secret of your own in production (e.g. `openssl rand -hex 32`).',
      )
    }
    const url = env.APP_URL ? new URL(env.APP_URL) : null
    if (!url || (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))) {
      problems.push(
        'APP_URL must be the https:// address of the site in production (http:// only for localhost or 127.0.0.1).',
      )
    }
  }
  problems.push(...s3ConfigProblems(env))
  if (env.PAYFAST_MODE === 'live') {
    const sandbox = PAYFAST_SANDBOX_CREDENTIALS
    if (
      env.PAYFAST_MERCHANT_ID === sandbox.merchantId ||
      env.PAYFAST_MERCHANT_KEY === sandbox.merchantKey ||
      env.PAYFAST_PASSPHRASE === sandbox.passphrase
    ) {
      problems.push(
        "PAYFAST_MODE=live needs your own PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY and PAYFAST_PASSPHRASE; PayFast's public sandbox credentials work only with PAYFAST_MODE=sandbox.",
      )
    }
    if (
      !env.PAYFAST_MERCHANT_ID.trim() ||
      !env.PAYFAST_MERCHANT_KEY.trim() ||
      !env.PAYFAST_PASSPHRASE.trim()
    ) {
      problems.push(
        'PAYFAST_MODE=live needs PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY and PAYFAST_PASSPHRASE.',
      )
    }
  }
  return problems
}

/**
 * A bucket half set up: FILE_STORE=s3 without all of its settings, or some S3_ settings
 * without the rest (the object store, or another user of the bucket, would fail later).
 */
function s3ConfigProblems(env: Env): string[] {
  const missing = S3_REQUIRED_SETTINGS.filter((name) => !env[name])
  const someSet = S3_REQUIRED_SETTINGS.some((name) => env[name]) || Boolean(env.S3_ENDPOINT)
  if (!missing.length || (env.FILE_STORE === 'local' && !someSet)) return []
  if (env.FILE_STORE === 's3')
    return [`FILE_STORE=s3 needs ${missing.join(', ')} (S3_ENDPOINT too for a bucket outside AWS).`]
  return [`The bucket is half set: set ${missing.join(', ')} as well, or none of the S3_ settings.`]
}

/** Stops the server start on any problem of `productionConfigProblems` (server.ts, before listen). */
export function assertSafeProductionConfig() {
  const problems = productionConfigProblems()
  if (problems.length) throw new Error(`Refusing to start:\n- ${problems.join('\n- ')}`)
}

/** The business details shown in the footer, the legal page and on invoices. */
export function getCompanyInfo() {
  const env = getEnv()
  return {
    legalName: env.COMPANY_LEGAL_NAME,
    registrationNumber: env.COMPANY_REG_NUMBER,
    vatNumber: env.COMPANY_VAT_NUMBER,
    address: env.COMPANY_ADDRESS,
    phone: env.COMPANY_PHONE,
    email: env.COMPANY_EMAIL,
    directors: env.COMPANY_DIRECTORS,
    operatorName: env.OPERATOR_NAME,
    operatorRocNumber: env.OPERATOR_ROC_NUMBER,
  }
}

/** The Information Officer and processors the privacy notice names (POPIA s18). */
export function getPrivacyContacts() {
  const env = getEnv()
  return {
    informationOfficer: {
      name: env.INFORMATION_OFFICER_NAME,
      email: env.INFORMATION_OFFICER_EMAIL,
      phone: env.INFORMATION_OFFICER_PHONE,
    },
    hosting: env.HOSTING_PROCESSOR,
    mail: env.MAIL_PROCESSOR,
  }
}
export type CompanyInfo = ReturnType<typeof getCompanyInfo>
