/** Page loaders and actions of the foundation: landing contact form, password pages, dashboards. */
import { randomBytes } from 'node:crypto'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { getHoneypot } from '#app/lib/http/honeypot.server.ts'
import { listOutbox } from '#app/lib/mail/mail.server.ts'
import { action as landingAction } from '#app/routes/_index.tsx'
import { loader as adminLoader } from '#app/routes/admin.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard.tsx'
import { loader as outboxLoader } from '#app/routes/dev.outbox.tsx'
import { action as forgotAction } from '#app/routes/forgot-password.tsx'
import { action as resetAction, loader as resetLoader } from '#app/routes/reset-password.tsx'
import { contactMessages } from '#db/schema.ts'
import { createTestUser, signedInUser } from '#tests/factories.ts'
import { waitForOutbox } from '#tests/helpers/outbox.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { extractLink } from '#tests/helpers/smtp-server.ts'
import { afterEach, describe, expect, it } from 'vitest'

const freshIp = () => `198.19.${randomBytes(1)[0]}.${randomBytes(1)[0]}`

/** The hidden honeypot fields a real page renders (empty trap, signed timestamp). */
function honeypotFields(): Record<string, string> {
  const props = getHoneypot().getInputProps()
  return {
    [props.nameFieldName]: '',
    ...(props.validFromFieldName ? { [props.validFromFieldName]: props.encryptedValidFrom } : {}),
  }
}

afterEach(() => {
  process.env.NODE_ENV = 'test'
  delete process.env.SEED
  delete process.env.ALLOW_DEMO_SEED
  resetEnvCache()
})

describe('landing page contact form', () => {
  const enquiry = {
    intent: 'contact',
    name: 'Pieter van Wyk',
    email: 'pieter@example.test',
    message: 'Survey of 12 ha in Durbanville?',
  }

  it('with JavaScript: answers in place with the success toast and a cleared form', async () => {
    const res = await callRoute(landingAction, '/?index', {
      form: { ...honeypotFields(), ...enquiry, via: 'fetcher' },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(200)
    const body = await readJson<{ toast: unknown; result: { initialValue: unknown } }>(res)
    expect(body.toast).toEqual({
      title: 'Message sent successfully!',
      description: "We'll get back to you as soon as possible.",
      type: 'success',
    })
    expect(body.result.initialValue).toBeNull()
    const rows = getDb().select().from(contactMessages).all()
    expect(rows.some((r) => r.email === 'pieter@example.test')).toBe(true)
    expect((await listOutbox()).some((m) => m.subject === 'New enquiry from Pieter van Wyk')).toBe(true)
  })

  it('without JavaScript: redirects to /#contact with the toast in a flash cookie', async () => {
    const res = await callRoute(landingAction, '/?index', {
      form: { ...honeypotFields(), ...enquiry },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/#contact')
    expect(res.headers.get('Set-Cookie')).toMatch(/^kestrel_toast=/)
  })

  it('400 with field errors for an incomplete form, and nothing stored', async () => {
    const before = getDb().select().from(contactMessages).all().length
    const res = await callRoute(landingAction, '/?index', {
      form: { ...honeypotFields(), intent: 'contact', name: '', email: 'nope', message: '', via: 'fetcher' },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(400)
    const body = await readJson<{ result: { error: Record<string, string[]> } }>(res)
    expect(body.result.error).toEqual({
      name: ['Name is required'],
      email: ['Please enter a valid email'],
      message: ['Message is required'],
    })
    expect(getDb().select().from(contactMessages).all().length).toBe(before)
  })

  it('refuses a form a bot filled in (honeypot)', async () => {
    const props = getHoneypot().getInputProps()
    const res = await callRoute(landingAction, '/?index', {
      form: { ...honeypotFields(), [props.nameFieldName]: 'https://spam.example', ...enquiry },
      context: { clientIp: freshIp() },
    })
    expect(res.status).toBe(400)
  })

  it('rate-limits the contact form with the error toast', async () => {
    const ip = freshIp()
    for (let i = 0; i < 5; i++) {
      const ok = await callRoute(landingAction, '/?index', {
        form: { ...honeypotFields(), ...enquiry, via: 'fetcher' },
        context: { clientIp: ip },
      })
      expect(ok.status).toBe(200)
    }
    const res = await callRoute(landingAction, '/?index', {
      form: { ...honeypotFields(), ...enquiry, via: 'fetcher' },
      context: { clientIp: ip },
    })
    expect(res.status).toBe(429)
    expect(await readJson(res)).toMatchObject({ toast: { title: 'Error sending message', type: 'error' } })
  })
})

describe('forgot and reset password pages', () => {
  it('forgot-password shows the same result for known and unknown addresses', async () => {
    const user = await createTestUser()
    const ip = freshIp()
    const known = await callRoute(forgotAction, '/forgot-password', {
      form: { ...honeypotFields(), email: user.email },
      context: { clientIp: ip },
    })
    const unknown = await callRoute(forgotAction, '/forgot-password', {
      form: { ...honeypotFields(), email: 'ghost@example.test' },
      context: { clientIp: ip },
    })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(await readJson(known)).toMatchObject({ sent: true })
    expect(await readJson(unknown)).toMatchObject({ sent: true })
  })

  it('reset-password without a token redirects to /forgot-password', async () => {
    const res = await callRoute(resetLoader, '/reset-password')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/forgot-password')
  })

  it('reset-password verifies the token in the loader, resets once, then shows it as invalid', async () => {
    const user = await createTestUser()
    await callRoute(forgotAction, '/forgot-password', {
      form: { ...honeypotFields(), email: user.email },
      context: { clientIp: freshIp() },
    })
    const mail = await waitForOutbox((m) => m.to === user.email)
    const link = new URL(extractLink(mail.text, '/reset-password?token='))
    const token = link.searchParams.get('token')!

    const page = await callRoute(resetLoader, `/reset-password?token=${token}`)
    expect(await readJson(page)).toEqual({ token, valid: true, email: user.email })

    const done = await callRoute(resetAction, '/reset-password', {
      form: { ...honeypotFields(), token, password: 'fresh-pass', confirmPassword: 'fresh-pass' },
      context: { clientIp: freshIp() },
    })
    expect(await readJson(done)).toMatchObject({ outcome: 'done' })

    const reused = await callRoute(resetAction, '/reset-password', {
      form: { ...honeypotFields(), token, password: 'fresh-pass2', confirmPassword: 'fresh-pass2' },
      context: { clientIp: freshIp() },
    })
    expect(reused.status).toBe(400)
    expect(await readJson(reused)).toMatchObject({ outcome: 'invalid-token' })
    expect(await readJson(await callRoute(resetLoader, `/reset-password?token=${token}`))).toMatchObject({
      valid: false,
    })
  })
})

describe('role dashboards', () => {
  it('a client asking for /admin gets the client view, never the admin figures', async () => {
    const { headers } = await signedInUser('client')
    const res = await callRoute(adminLoader, '/admin', { headers })
    expect(res.status).toBe(200)
    const data = await readJson<{ role: string; stats: Record<string, unknown> }>(res)
    expect(data.role).toBe('client')
    expect(Object.keys(data.stats).sort()).toEqual(['activeProjects', 'pendingProjects', 'totalSpent'])

    const admin = await signedInUser('admin')
    const adminData = await readJson<{ role: string }>(
      await callRoute(adminLoader, '/admin', { headers: admin.headers }),
    )
    expect(adminData.role).toBe('admin')
  })

  it('visitors are sent to the login screen', async () => {
    const res = await callRoute(dashboardLoader, '/dashboard')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard')
  })
})

describe('development outbox', () => {
  it('lists the outbox in development, to admins only in the demo, and is a 404 in production', async () => {
    const ok = await callRoute(outboxLoader, '/dev/outbox')
    expect(ok.status).toBe(200)
    process.env.NODE_ENV = 'production'
    resetEnvCache()
    const hidden = await callRoute(outboxLoader, '/dev/outbox')
    expect(hidden.status).toBe(404)
    // The local demo is a production build, and keeps the page for admins: it holds
    // password-reset links, so strangers must not read it.
    Object.assign(process.env, { SEED: 'demo', ALLOW_DEMO_SEED: 'true' })
    resetEnvCache()
    const anonymous = await callRoute(outboxLoader, '/dev/outbox')
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('Location')).toMatch(/^\/login/)
    const client = await signedInUser('client')
    expect((await callRoute(outboxLoader, '/dev/outbox', { headers: client.headers })).status).toBe(403)
    const admin = await signedInUser('admin')
    expect((await callRoute(outboxLoader, '/dev/outbox', { headers: admin.headers })).status).toBe(200)
  })
})
