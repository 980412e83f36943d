/** Helpers for the account journeys: API sign-up and direct changes to the e2e database. */
import { createHash } from 'node:crypto'
import path from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import Database from 'better-sqlite3'

import { extractLink } from '../helpers/smtp-server.ts'
import { e2eDir, e2eOrigin } from '../setup/e2e-env.ts'
import { uniqueEmail, waitForMail } from './fixtures.ts'

/** Registers a client through the real API (the journeys under test start after sign-up). */
export async function registerClientViaApi(request: APIRequestContext, password = 'first-pass-1') {
  const email = uniqueEmail('reset')
  const res = await request.post('/api/auth/register', {
    headers: { Origin: e2eOrigin },
    data: {
      firstName: 'Reset',
      lastName: 'Tester',
      email,
      password,
      confirmPassword: password,
      phone: '0821234567',
      country: 'South Africa',
    },
  })
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()} ${await res.text()}`)
  return { email, password }
}

/** The reset link of the newest reset e-mail the SMTP server received for an address. */
export async function resetLinkFor(email: string, after = 0) {
  const mail = await waitForMail(
    (m) => m.to.includes(email) && m.subject === 'Reset your Kestrel password' && m.receivedAt >= after,
  )
  return extractLink(mail.text, '/reset-password?token=')
}

/** Makes a reset link look an hour old, by moving its expiry into the past in the app's database. */
export function expireResetToken(link: string) {
  const token = new URL(link).searchParams.get('token')!
  const db = new Database(path.join(e2eDir, 'kestrel.sqlite'))
  try {
    db.pragma('busy_timeout = 5000')
    const hash = createHash('sha256').update(token).digest('hex')
    const changed = db
      .prepare('UPDATE password_reset_tokens SET expires_at = ? WHERE token_hash = ?')
      .run(Date.now() - 1000, hash).changes
    if (changed !== 1) throw new Error('reset token not found in the e2e database')
  } finally {
    db.close()
  }
}
