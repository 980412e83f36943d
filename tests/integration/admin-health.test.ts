/**
 * The admin's system health: GDAL, the disk of DATA_DIR, mail and PayFast, as JSON
 * (`GET /api/admin/health`, admins only) and as a section of the Settings tab.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { systemHealth, type HealthCheck } from '#app/domain/admin/health.server.ts'
import { createNode, listNodes } from '#app/domain/processing/nodes.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import * as healthRoute from '#app/routes/api.admin.health.ts'
import * as dashboard from '#app/routes/dashboard.tsx'
import { processingNodes } from '#db/schema.ts'
import { signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { unreachableSmtpUrl } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'

const saved = { ...process.env }
afterEach(() => {
  for (const key of ['PATH', 'MIN_FREE_DISK_MB', 'SMTP_URL', 'PAYFAST_MODE'])
    if (saved[key] === undefined) delete process.env[key]
    else process.env[key] = saved[key]
  resetEnvCache()
})

/** The checks the health page shows, in its order. */
const CHECK_IDS = ['gdal', 'disk', 'files', 'replication', 'mail', 'payfast', 'nodes']

const byId = (checks: HealthCheck[]) => Object.fromEntries(checks.map((c) => [c.id, c]))

describe('system health checks', () => {
  test('GDAL found with its version, disk free space, the outbox and the simulator', async () => {
    const { checks } = await systemHealth()
    expect(checks.map((c) => c.id)).toEqual(CHECK_IDS)
    const check = byId(checks)
    expect(check.gdal).toMatchObject({
      state: 'ok',
      summary: 'Installed',
      version: expect.stringMatching(/^GDAL \d+\.\d+/),
    })
    expect(check.disk).toMatchObject({ state: 'ok', summary: expect.stringMatching(/free of/) })
    expect(check.mail).toMatchObject({ state: 'info', summary: expect.stringMatching(/^Local outbox/) })
    expect(check.payfast).toMatchObject({ state: 'info', summary: expect.stringMatching(/^Simulator/) })
  })

  test('GDAL missing is a problem that says what to install', async () => {
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'no-gdal-'))
    const { gdal } = byId((await systemHealth()).checks)
    expect(gdal).toMatchObject({ state: 'error', summary: expect.stringMatching(/^Missing/) })
    expect(gdal!.detail).toContain('gdal-bin')
  })

  test('free space under the upload floor is a warning', async () => {
    process.env.MIN_FREE_DISK_MB = String(1024 * 1024 * 1024) // 1 PiB
    resetEnvCache()
    const { disk } = byId((await systemHealth()).checks)
    expect(disk).toMatchObject({ state: 'warning' })
    expect(disk!.detail).toMatch(/^Below the .* floor: uploads are refused/)
  })

  test('SMTP is named without its credentials, and a failed send is shown', async () => {
    process.env.SMTP_URL = (await unreachableSmtpUrl()).replace('smtp://', 'smtp://user:s3cret@')
    resetEnvCache()
    expect(
      await sendEmailSafely({ to: 'a@example.test', subject: 'Health probe', html: '', text: 'x' }),
    ).toBe(false)
    const { mail } = byId((await systemHealth()).checks)
    expect(mail).toMatchObject({
      state: 'warning',
      summary: expect.stringMatching(/^SMTP via 127\.0\.0\.1:\d+$/),
    })
    expect(mail!.detail).toContain('"Health probe"')
    expect(JSON.stringify(mail)).not.toContain('s3cret')
  })

  test('live PayFast is OK; a probe that throws or hangs is a failed check, the others still answer', async () => {
    process.env.PAYFAST_MODE = 'live'
    resetEnvCache()
    expect(byId((await systemHealth()).checks).payfast).toMatchObject({ state: 'ok' })
    const { checks } = await systemHealth(
      [
        { id: 'nodes', label: 'Processing nodes', run: () => Promise.reject(new Error('node 1 refused')) },
        { id: 'slow', label: 'Slow', run: () => new Promise(() => {}) },
        { id: 'fine', label: 'Fine', run: async () => ({ state: 'ok', summary: '2 of 2 online' }) },
      ],
      200,
    )
    expect(checks).toEqual([
      { id: 'nodes', label: 'Processing nodes', state: 'error', summary: 'Check failed: node 1 refused' },
      { id: 'slow', label: 'Slow', state: 'error', summary: 'No answer in time' },
      { id: 'fine', label: 'Fine', state: 'ok', summary: '2 of 2 online' },
    ])
  })
})

describe('GET /api/admin/health and the Settings tab', () => {
  test('processing nodes: none enabled is a warning, all offline an error, all online OK (from the last check)', async () => {
    for (const node of listNodes())
      getDb().delete(processingNodes).where(eq(processingNodes.id, node.id)).run()
    expect(byId((await systemHealth()).checks).nodes).toMatchObject({
      state: 'warning',
      summary: 'No processing node enabled',
    })
    const node = createNode(null, { label: 'GPU box', url: 'http://127.0.0.1:9' })
    expect(byId((await systemHealth()).checks).nodes).toMatchObject({
      state: 'error',
      summary: '0 of 1 enabled node online',
    })
    getDb().update(processingNodes).set({ online: true }).where(eq(processingNodes.id, node.id)).run()
    expect(byId((await systemHealth()).checks).nodes).toMatchObject({
      state: 'ok',
      detail: 'Online: GPU box',
    })
    getDb().delete(processingNodes).where(eq(processingNodes.id, node.id)).run()
  })

  test('admins get the checks; clients and pilots 403, signed out 401', async () => {
    const admin = await signedInUser('admin')
    const res = await callRoute(healthRoute.loader, '/api/admin/health', { headers: admin.headers })
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const body = await readJson<{ checks: HealthCheck[] }>(res)
    expect(body.checks.map((c) => c.id)).toEqual(CHECK_IDS)
    for (const role of ['client', 'pilot'] as const) {
      const who = await signedInUser(role)
      const denied = await callRoute(healthRoute.loader, '/api/admin/health', { headers: who.headers })
      expect(denied.status).toBe(403)
    }
    expect((await callRoute(healthRoute.loader, '/api/admin/health')).status).toBe(401)
  })

  test('the Settings tab loads the checks with the page (no JavaScript needed)', async () => {
    const admin = await signedInUser('admin')
    const res = await callRoute(dashboard.loader, '/dashboard?tab=settings', { headers: admin.headers })
    const data = await readJson<{ admin: { tab: string; health: { checks: HealthCheck[] } } }>(res)
    expect(data.admin.tab).toBe('settings')
    expect(data.admin.health.checks.find((c) => c.id === 'gdal')).toMatchObject({ state: 'ok' })
  })
})
