/**
 * The fallback messages: when the server has no message of its own (an unexpected failure, here
 * a database without its users table), the form shows 'Login failed', 'Registration failed'
 * or 'Failed to reset password. Please try again.' instead of the error page.
 */
import { randomBytes } from 'node:crypto'
import { getDb } from '#app/lib/db/db.server.ts'
import { getHoneypot } from '#app/lib/http/honeypot.server.ts'
import { action as loginAction } from '#app/routes/login.tsx'
import { action as registerAction } from '#app/routes/register.tsx'
import { action as resetAction } from '#app/routes/reset-password.tsx'
import { createTestUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'

const freshIp = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`

function honeypotFields(): Record<string, string> {
  const props = getHoneypot().getInputProps()
  return {
    [props.nameFieldName]: '',
    ...(props.validFromFieldName ? { [props.validFromFieldName]: props.encryptedValidFrom } : {}),
  }
}

/** Runs `fn` while the users table is missing: every account lookup fails unexpectedly. */
async function withoutUsersTable<T>(fn: () => Promise<T>): Promise<T> {
  const db = getDb()
  db.run(sql`ALTER TABLE users RENAME TO users_away`)
  try {
    return await fn()
  } finally {
    db.run(sql`ALTER TABLE users_away RENAME TO users`)
  }
}

type FormAnswer = { result: { error?: Record<string, string[] | null> } }
const formErrors = async (response: Response) =>
  (await readJson<FormAnswer>(response)).result.error?.[''] ?? []

describe('unexpected failures show the fixed fallback in the form', () => {
  it("login: 'Login failed'", async () => {
    const user = await createTestUser()
    const response = await withoutUsersTable(() =>
      callRoute(loginAction, '/login', {
        form: { ...honeypotFields(), email: user.email, password: 'whatever-pass' },
        context: { clientIp: freshIp() },
      }),
    )
    expect(response.status).toBe(500)
    expect(await formErrors(response)).toEqual(['Login failed'])
  })

  it("register: 'Registration failed'", async () => {
    const form = {
      ...honeypotFields(),
      firstName: 'Thandi',
      lastName: 'Nkosi',
      email: `thandi-${randomBytes(3).toString('hex')}@example.test`,
      phone: '+27 82 123 4567',
      country: 'South Africa',
      password: 'secret-pass',
      confirmPassword: 'secret-pass',
      acceptTerms: 'on',
    }
    const response = await withoutUsersTable(() =>
      callRoute(registerAction, '/register', { form, context: { clientIp: freshIp() } }),
    )
    expect(response.status).toBe(500)
    expect(await formErrors(response)).toEqual(['Registration failed'])
  })

  it("reset-password: 'Failed to reset password. Please try again.' (not the invalid-link screen)", async () => {
    // The lookup itself fails, so whether the token is good cannot be known: not 'Invalid Reset Link'.
    const token = randomBytes(16).toString('hex')
    const response = await withoutUsersTable(() =>
      callRoute(resetAction, '/reset-password', {
        form: { ...honeypotFields(), token, password: 'fresh-pass', confirmPassword: 'fresh-pass' },
        context: { clientIp: freshIp() },
      }),
    )
    expect(response.status).toBe(500)
    const body = await readJson<FormAnswer & { outcome: string }>(response)
    expect(body.outcome).toBe('failed')
    expect(body.result.error?.['']).toEqual(['Failed to reset password. Please try again.'])
  })
})
