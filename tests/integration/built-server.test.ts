/**
 * The built server as production runs it (`server-build/server.js` over `build/`; `npm run
 * build` first — `npm test` builds before this stage), in a child process on this test file's
 * database: one copy of each stateful service in the process (issue 24), so a raster uploaded
 * through the multipart API is converted by the job runner server.ts started, and a receipt in
 * flight at SIGTERM is sent before the process ends (the shutdown waits on the very mail).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { deliverableViews, mailOutbox } from '#db/schema.ts'
import { projectWithTeam } from '#tests/factories.ts'
import { multipart } from '#tests/helpers/files.ts'
import { signedItn, startedCheckout, withValidateServer } from '#tests/helpers/payments-fixtures.ts'
import { buildRaster, toCrs } from '#tests/helpers/rasters.ts'
import { startTestSmtpServer } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const SERVER_BUNDLE = 'server-build/server.js'

withValidateServer()

function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The built server on a free port, on this file's database, sending to `smtpUrl`; resolves once it answers. */
async function startServer(smtpUrl: string) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: url,
    SMTP_URL: smtpUrl,
    // A real deployment's settings (no demo), its PayFast notifications from here.
    PAYFAST_TRUSTED_IPS: '127.0.0.1,::1',
  }
  delete env.SEED
  delete env.VITEST
  const child = spawn(process.execPath, [SERVER_BUNDLE], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`)
      const ok = await fetch(`${url}/healthcheck`).then(
        (r) => r.ok,
        () => false,
      )
      return ok || undefined
    },
    'the server to start',
    60_000,
  )
  return { child, base: url, output: () => output }
}

/** Sends SIGTERM and resolves with the exit code. */
function stopServer(child: ChildProcess) {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  return exited
}

/** Mail to the server's SMTP is held in flight until `release()`. */
let releaseMail: () => void = () => {}
const mailHeld = new Promise<void>((resolve) => (releaseMail = resolve))
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>
let server: ChildProcess
let base = ''
let log: () => string = () => ''

beforeAll(async () => {
  if (!fs.existsSync(SERVER_BUNDLE) || !fs.existsSync('build/index.js')) {
    throw new Error('No build: run `npm run build` before this test')
  }
  // Payments started here are the server's: PayFast's sandbox, as a real deployment's.
  process.env.PAYFAST_MODE = 'sandbox'
  resetEnvCache()
  smtp = await startTestSmtpServer({ holdUntil: mailHeld })
  const started = await startServer(smtp.url)
  server = started.child
  base = started.base
  log = started.output
}, 90_000)

afterAll(async () => {
  process.env.PAYFAST_MODE = 'simulator'
  resetEnvCache()
  releaseMail()
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r))
    server.kill('SIGKILL')
    await exited
  }
  await smtp?.close()
})

describe('the built server', () => {
  test('its own bundle holds none of the domain: every service comes from the build', () => {
    const bundle = fs.readFileSync(SERVER_BUNDLE, 'utf8')
    expect(bundle).not.toMatch(/app\/domain\//)
    expect(bundle).toContain('serverServices')
    // It started: server.ts refuses to when a stateful module was loaded twice.
    expect(log()).toContain('Kestrel listening on')
  })

  test('a GeoTIFF uploaded through /api/admin/upload-project-file reaches ready without a restart', async () => {
    const { admin, project } = await projectWithTeam({ status: 'in_progress' })
    const [e, n] = toCrs(32734, 18.4315, -34.0135)
    const tif = buildRaster({
      epsg: 32734,
      ullr: [e - 50, n + 50, e + 50, n - 50],
      widthPx: 200,
      heightPx: 200,
      bands: 3,
      type: 'Byte',
    })
    const res = await fetch(`${base}/api/admin/upload-project-file`, {
      method: 'POST',
      headers: admin.headers,
      body: multipart(
        { projectId: String(project.id), category: 'processed_deliverable' },
        { name: 'Orthomosaic.tif', bytes: fs.readFileSync(tif), type: 'image/tiff' },
      ),
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const { file } = (await res.json()) as { file: { id: number } }
    const view = await until(
      () => {
        const row = getDb().select().from(deliverableViews).where(eq(deliverableViews.fileId, file.id)).get()
        return row && row.status !== 'queued' && row.status !== 'processing' ? row : undefined
      },
      'the viewing copy',
      60_000,
    )
    expect({ status: view.status, error: view.error }).toEqual({ status: 'ready', error: null })
  }, 90_000)

  test('a receipt started before SIGTERM is delivered before the process ends', async () => {
    const { client, checkout } = await startedCheckout()
    const itn = await fetch(`${base}/api/payfast/notify`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: signedItn(checkout),
    })
    expect(itn.status, `${await itn.clone().text()}\n${log()}`).toBe(200)
    // The receipt is on its way: the SMTP server holds it.
    await until(() => (smtp.held.count > 0 ? true : undefined), 'the receipt to be in flight', 10_000)
    const exited = stopServer(server)
    // The mail is let through once the server has ended (a shutdown that forgot it ends within
    // a second or two), or after 6 s if it is still waiting for it (the grace period is 10 s).
    await Promise.race([exited, new Promise((r) => setTimeout(r, 6000))])
    releaseMail()
    expect(await exited).toBe(0)
    expect(smtp.messages.map((m) => ({ to: m.to, subject: m.subject }))).toContainEqual({
      to: [client.email.toLowerCase()],
      subject: expect.stringMatching(/^Payment received: /),
    })
  }, 30_000)
})

describe('mail at a shutdown, with an SMTP server taking 6 s a message', () => {
  test('the second receipt, cut off by the grace, is kept and sent by the next start, once', async () => {
    const slow = await startTestSmtpServer({ slowMs: 6000 })
    const fast = await startTestSmtpServer()
    const unsent = () => getDb().select().from(mailOutbox).all()
    try {
      const first = await startServer(slow.url)
      const { checkout } = await startedCheckout()
      const itn = await fetch(`${first.base}/api/payfast/notify`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: signedItn(checkout),
      })
      expect(itn.status, first.output()).toBe(200)
      await until(() => (unsent().length ? true : undefined), 'the receipt to be on its way', 10_000)
      // The first receipt takes 6 s (inside the grace), the second would end at 12 s.
      expect(await stopServer(first.child)).toBe(0)
      expect(slow.messages.map((m) => m.subject)).toEqual([expect.stringMatching(/^Payment received: /)])
      expect(unsent().map((row) => JSON.parse(row.message) as { subject: string })).toEqual([
        expect.objectContaining({ subject: expect.stringMatching(/^New paid project awaiting a pilot: /) }),
      ])

      const next = await startServer(fast.url)
      await until(() => (unsent().length ? undefined : true), 'the kept receipt to be sent', 30_000)
      expect(await stopServer(next.child)).toBe(0)
      const notices = [...slow.messages, ...fast.messages].filter((m) =>
        m.subject.startsWith('New paid project awaiting a pilot: '),
      )
      expect(notices.map((m) => m.text.length > 0)).toEqual([true])
      expect(fast.messages.map((m) => m.subject)).toEqual([
        expect.stringMatching(/^New paid project awaiting a pilot: /),
      ])
    } finally {
      await slow.close()
      await fast.close()
    }
  }, 120_000)
})
