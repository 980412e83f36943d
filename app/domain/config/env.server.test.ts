import { afterEach, describe, expect, it } from 'vitest'
import { assertSafeProductionConfig, getEnv, resetEnvCache } from './env.server.ts'

const saved = { ...process.env }

afterEach(() => {
  for (const key of ['NODE_ENV', 'PAYFAST_MODE', 'SEED', 'ALLOW_DEMO_SEED', 'SESSION_SECRET']) {
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

describe('production configuration', () => {
  it('refuses the PayFast simulator in a real production deployment', () => {
    withEnv({ NODE_ENV: 'production', PAYFAST_MODE: 'simulator', SEED: undefined, ALLOW_DEMO_SEED: undefined })
    expect(() => assertSafeProductionConfig()).toThrow(/PAYFAST_MODE=simulator/)
  })

  it('allows the simulator in development and in the local demo, and sandbox in production', () => {
    withEnv({ NODE_ENV: 'development', PAYFAST_MODE: 'simulator' })
    expect(() => assertSafeProductionConfig()).not.toThrow()
    withEnv({ NODE_ENV: 'production', PAYFAST_MODE: 'simulator', SEED: 'demo', ALLOW_DEMO_SEED: 'true' })
    expect(() => assertSafeProductionConfig()).not.toThrow()
    withEnv({ NODE_ENV: 'production', PAYFAST_MODE: 'sandbox', SEED: undefined, ALLOW_DEMO_SEED: undefined })
    expect(() => assertSafeProductionConfig()).not.toThrow()
  })

  it('never signs production cookies with the development default secret', () => {
    withEnv({ NODE_ENV: 'production', PAYFAST_MODE: 'sandbox', SESSION_SECRET: undefined })
    const secret = getEnv().SESSION_SECRET
    expect(secret).not.toBe('kestrel-dev-secret-change-me')
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
  })
})
