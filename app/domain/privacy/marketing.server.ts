/**
 * Marketing e-mail under POPIA s69 (ADR 110): only to users who ticked the separate
 * opt-in, and every message carries a signed unsubscribe link (and the one-click
 * List-Unsubscribe headers) that works without signing in.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { appUrl, getEnv } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { sendEmailSafely } from '#app/lib/mail/mail.server.ts'
import { renderEmail, type EmailContent } from '#app/lib/mail/templates.ts'
import { users } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

function secret() {
  return process.env.UNSUBSCRIBE_SECRET || getEnv().SESSION_SECRET
}

function sign(payload: string) {
  return createHmac('sha256', secret()).update(`unsubscribe:${payload}`).digest('base64url')
}

/** `<userId>.<signature>`: no expiry, so an old e-mail's link keeps working. */
export function unsubscribeToken(userId: number) {
  return `${userId}.${sign(String(userId))}`
}

/** The user id a token was made for, or null when it was tampered with. */
export function readUnsubscribeToken(token: string | null | undefined): number | null {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '')
  if (!match) return null
  const expected = Buffer.from(sign(match[1]!))
  const given = Buffer.from(match[2]!)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  return Number(match[1])
}

function unsubscribeUrl(userId: number) {
  return `${appUrl()}/unsubscribe?token=${encodeURIComponent(unsubscribeToken(userId))}`
}

/** Withdraws marketing consent; true when the token was valid (also if already unsubscribed). */
export function unsubscribe(token: string | null | undefined): boolean {
  const userId = readUnsubscribeToken(token)
  if (userId == null) return false
  getDb()
    .update(users)
    .set({ marketingOptIn: false, marketingOptInAt: null })
    .where(eq(users.id, userId))
    .run()
  return true
}

export function setMarketingConsent(userId: number, optIn: boolean) {
  getDb()
    .update(users)
    .set({ marketingOptIn: optIn, marketingOptInAt: optIn ? new Date() : null })
    .where(eq(users.id, userId))
    .run()
}

/**
 * Sends one marketing message to a user, only if they opted in. Returns false when not
 * sent (no consent, unknown user, or delivery failed).
 */
export async function sendMarketingEmail(
  userId: number,
  message: { subject: string } & EmailContent,
): Promise<boolean> {
  const user = getDb().select().from(users).where(eq(users.id, userId)).get()
  if (!user || !user.marketingOptIn || !user.isActive || user.anonymisedAt) return false
  const url = unsubscribeUrl(user.id)
  const { subject, ...content } = message
  return sendEmailSafely({
    to: user.email,
    subject,
    ...renderEmail({
      ...content,
      footnote: content.footnote ?? 'You receive this because you asked for news from Kestrel Aerial Survey.',
      unsubscribeUrl: url,
    }),
    headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  })
}
