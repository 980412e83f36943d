import { afterEach, describe, expect, it } from 'vitest'

import {
  assertSafeProductionConfig,
  DEV_SESSION_SECRET,
  getEnv,
  PAYFAST_SANDBOX_CREDENTIALS,
  productionConfigProblems,
  resetEnvCache,
} from './env.server.ts'

const saved = { ...process.env }

afterEach(() => {
  for (const key of [
    'NODE_ENV',
    'PAYFAST_MODE',
    'SEED',
    'ALLOW_DEMO_SEED',
    'SESSION_SECRET',
    'APP_URL',
    'PAYFAST_MERCHANT_ID',
    'PAYFAST_MERCHANT_KEY',
    'PAYFAST_PASSPHRASE',
    'HOST',
    'FILE_STORE',
    'S3_ENDPOINT',
    'S3_REGION',
    'S3_BUCKET',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_PREFIX',
    'LITESTREAM_REPLICA_URL',
  ]) {
    if (saved[key] === undefined) delete process.env[key]
    else process.env[key] = saved[key]
  }
  resetEnvCache()
})

function withEnv(values: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  resetEnvCache()
}

/** A real deployment: its own secret, https address, the PayFast sandbox. */
const PRODUCTION = {
  NODE_ENV: 'production',
  PAYFAST_MODE: 'sandbox',
  SESSION_SECRET: 'a-real-secret-of-our-own-0123456789',
  APP_URL: 'https://kestrel.example',
  SEED: undefined,
  ALLOW_DEMO_SEED: undefined,
  PAYFAST_MERCHANT_ID: undefined,
  PAYFAST_MERCHANT_KEY: undefined,
  PAYFAST_PASSPHRASE: undefined,
}

/** The local demo: a production build with the demo seed and the simulator, no secret of its own. */
const LOCAL_DEMO = {
  NODE_ENV: 'production',
  PAYFAST_MODE: 'simulator',
  SEED: 'demo',
  ALLOW_DEMO_SEED: 'true',
  SESSION_SECRET: undefined,
}

/** A live deployment with our own merchant id and key (the passphrase is up to each test). */
const OUR_LIVE_MERCHANT = {
  ...PRODUCTION,
  PAYFAST_MODE: 'live',
  PAYFAST_MERCHANT_ID: '10234567',
  PAYFAST_MERCHANT_KEY: 'abcdef1234567',
}

describe('production configuration', () => {
  const BUCKET = {
    FILE_STORE: 's3',
    S3_REGION: 'af-south-1',
    S3_BUCKET: 'kestrel-files',
    S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'secret',
  }

  it('refuses FILE_STORE=s3 or S3_ settings half set, naming what is missing', () => {
    withEnv({ ...PRODUCTION, ...BUCKET })
    expect(() => assertSafeProductionConfig()).not.toThrow()
    expect(getEnv().S3_PREFIX).toBe('')
    withEnv({ ...PRODUCTION, ...BUCKET, S3_BUCKET: '', S3_SECRET_ACCESS_KEY: undefined })
    expect(() => assertSafeProductionConfig()).toThrow('FILE_STORE=s3 needs S3_BUCKET, S3_SECRET_ACCESS_KEY')
    withEnv({ ...PRODUCTION, ...BUCKET, FILE_STORE: 'local', S3_REGION: undefined })
    expect(() => assertSafeProductionConfig()).toThrow('The bucket is half set: set S3_REGION as well')
    withEnv({ ...PRODUCTION, ...BUCKET, FILE_STORE: undefined, S3_PREFIX: '/kestrel/' })
    expect(() => assertSafeProductionConfig()).not.toThrow()
    expect(getEnv()).toMatchObject({ FILE_STORE: 'local', S3_PREFIX: 'kestrel/' })
  })

  it('refuses the PayFast simulator in a real production deployment', () => {
    withEnv({ ...PRODUCTION, PAYFAST_MODE: 'simulator' })
    expect(() => assertSafeProductionConfig()).toThrow(/PAYFAST_MODE=simulator/)
  })

  it('allows the simulator in development and in the local demo, and sandbox in production', () => {
    withEnv({
      ...PRODUCTION,
      NODE_ENV: 'development',
      PAYFAST_MODE: 'simulator',
      SESSION_SECRET: undefined,
      APP_URL: undefined,
    })
    expect(() => assertSafeProductionConfig()).not.toThrow()
    withEnv({ ...LOCAL_DEMO, APP_URL: undefined })
    expect(() => assertSafeProductionConfig()).not.toThrow()
    withEnv(PRODUCTION)
    expect(() => assertSafeProductionConfig()).not.toThrow()
  })

  it('refuses to start without a SESSION_SECRET of its own', () => {
    withEnv({ ...PRODUCTION, SESSION_SECRET: undefined })
    expect(() => assertSafeProductionConfig()).toThrow(/SESSION_SECRET must be set/)
    withEnv({ ...PRODUCTION, SESSION_SECRET: DEV_SESSION_SECRET })
    expect(() => assertSafeProductionConfig()).toThrow(/SESSION_SECRET must be set/)
    withEnv({ ...PRODUCTION, SESSION_SECRET: `new-secret-0123456789,${DEV_SESSION_SECRET}` })
    expect(() => assertSafeProductionConfig()).toThrow(/SESSION_SECRET must be set/)
  })

  it('the local demo gets a random secret rather than the public default', () => {
    withEnv(LOCAL_DEMO)
    const secret = getEnv().SESSION_SECRET
    expect(secret).not.toBe(DEV_SESSION_SECRET)
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
  })

  it('needs an https APP_URL; http only on loopback', () => {
    for (const bad of [
      undefined,
      'http://kestrel.example',
      'http://10.0.0.5:3000',
      'ftp://kestrel.example',
    ]) {
      withEnv({ ...PRODUCTION, APP_URL: bad })
      expect(() => assertSafeProductionConfig(), String(bad)).toThrow(/APP_URL must be the https/)
    }
    for (const good of [
      'https://kestrel.example',
      'http://localhost:3110',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
    ]) {
      withEnv({ ...PRODUCTION, APP_URL: good })
      expect(() => assertSafeProductionConfig(), good).not.toThrow()
    }
  })

  it("accepts PayFast's public sandbox credentials only in sandbox mode; live needs our own merchant", () => {
    withEnv({ ...PRODUCTION, PAYFAST_MODE: 'live' })
    expect(() => assertSafeProductionConfig()).toThrow(/PAYFAST_MODE=live needs your own/)
    withEnv({ ...PRODUCTION, PAYFAST_MODE: 'live', NODE_ENV: 'development' })
    expect(() => assertSafeProductionConfig()).toThrow(/PAYFAST_MODE=live needs your own/)
    withEnv({ ...OUR_LIVE_MERCHANT, PAYFAST_PASSPHRASE: PAYFAST_SANDBOX_CREDENTIALS.passphrase })
    expect(() => assertSafeProductionConfig()).toThrow(/PAYFAST_MODE=live needs your own/)
    withEnv({ ...OUR_LIVE_MERCHANT, PAYFAST_PASSPHRASE: 'Our-Own-Passphrase' })
    expect(() => assertSafeProductionConfig()).not.toThrow()
  })

  it('lists every problem at once', () => {
    withEnv({
      ...PRODUCTION,
      PAYFAST_MODE: 'live',
      SESSION_SECRET: undefined,
      APP_URL: 'http://kestrel.example',
    })
    expect(productionConfigProblems()).toHaveLength(3)
  })
})

describe('HOST', () => {
  it('listens on this machine only unless told otherwise; the Dockerfile and the demo say which', async () => {
    withEnv({ HOST: undefined })
    expect(getEnv().HOST).toBe('127.0.0.1')
    withEnv({ HOST: '0.0.0.0' })
    expect(getEnv().HOST).toBe('0.0.0.0')
    const fs = await import('node:fs')
    expect(fs.readFileSync('Dockerfile', 'utf8')).toMatch(/^\s*HOST=0\.0\.0\.0 \\$/m)
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }
    expect(pkg.scripts.demo).toContain('HOST=127.0.0.1')
  })

  it('is what server.ts listens on', async () => {
    const fs = await import('node:fs')
    expect(fs.readFileSync('server.ts', 'utf8')).toMatch(/app\.listen\(env\.PORT, env\.HOST,/)
  })
})

describe('LITESTREAM_REPLICA_URL', () => {
  it('takes an s3:// or file:/// replica, and none by default', () => {
    withEnv({ LITESTREAM_REPLICA_URL: undefined })
    expect(getEnv().LITESTREAM_REPLICA_URL).toBeUndefined()
    withEnv({ LITESTREAM_REPLICA_URL: 's3://kestrel-backups/db' })
    expect(getEnv().LITESTREAM_REPLICA_URL).toBe('s3://kestrel-backups/db')
    withEnv({ LITESTREAM_REPLICA_URL: 'file:///tmp/kestrel-replica' })
    expect(getEnv().LITESTREAM_REPLICA_URL).toBe('file:///tmp/kestrel-replica')
  })

  it('refuses anything else with a message naming the two forms', () => {
    for (const value of ['https://kestrel-backups.s3.amazonaws.com/db', 'file://relative/dir', 's3://']) {
      withEnv({ LITESTREAM_REPLICA_URL: value })
      expect(() => getEnv()).toThrow('LITESTREAM_REPLICA_URL must be an s3://bucket/path or file:///dir URL')
    }
  })
})
