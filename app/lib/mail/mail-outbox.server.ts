/**
 * The rows of `mail_outbox`: each message `sendEmailSafely` starts is written here before it is
 * sent and deleted once the SMTP server has taken it, so mail a shutdown cuts off (or a crash)
 * is still here at the next start. A row is `sending` while a process (`owner`) has it in hand;
 * a start turns another process's `sending` rows `queued` and the outbox (`mail.server.ts`)
 * sends them, each attempt with the row's one Message-ID. No row leaves this module's hands
 * half-written: every change is one statement.
 */
import crypto from 'node:crypto'
import { getEnv } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { mailOutbox, type MailOutboxRow } from '#db/schema.ts'
import { and, asc, eq, inArray, lte, min, ne, notInArray } from 'drizzle-orm'

import type { EmailMessage } from './mail.server.ts'

/** This process, as the owner of the rows it is sending. */
const OWNER = `${process.pid}-${crypto.randomUUID()}`

type StoredMessage = Omit<EmailMessage, 'attachments'> & {
  attachments?: Array<{ filename: string; content: string; contentType: string; cid?: string }>
}

function messageIdFor(id: string) {
  let host = 'kestrel.invalid'
  try {
    host = new URL(getEnv().APP_URL ?? '').hostname || host
  } catch {
    // The default host: a Message-ID needs one, any will do.
  }
  return `<${id}@${host}>`
}

/** Keeps a message about to be sent (this process's, `sending`); null when the database cannot. */
export function keepUnsent(message: EmailMessage): { id: number; messageId: string } | null {
  const stored: StoredMessage = {
    ...message,
    attachments: message.attachments?.map((a) => ({ ...a, content: a.content.toString('base64') })),
  }
  const messageId = messageIdFor(crypto.randomUUID())
  try {
    const row = getDb()
      .insert(mailOutbox)
      .values({
        messageId,
        message: JSON.stringify(stored),
        state: 'sending',
        owner: OWNER,
        dueAt: new Date(),
      })
      .returning({ id: mailOutbox.id })
      .get()
    return { id: row.id, messageId }
  } catch (error) {
    console.error(`[mail] could not keep "${message.subject}" in the outbox; sending it anyway`, error)
    return null
  }
}

/** The message a row keeps. */
export function messageOf(row: MailOutboxRow): EmailMessage {
  const stored = JSON.parse(row.message) as StoredMessage
  return {
    ...stored,
    attachments: stored.attachments?.map((a) => ({ ...a, content: Buffer.from(a.content, 'base64') })),
  }
}

/** The SMTP server has taken it. */
export function forgetSent(id: number) {
  getDb().delete(mailOutbox).where(eq(mailOutbox.id, id)).run()
}

/** A failed attempt: queued again at `dueAt`. */
export function queueAgain(id: number, failure: { attempts: number; error: unknown; dueAt: Date }) {
  const text = failure.error instanceof Error ? failure.error.message : String(failure.error)
  getDb()
    .update(mailOutbox)
    .set({ state: 'queued', attempts: failure.attempts, dueAt: failure.dueAt, lastError: text.slice(0, 300) })
    .where(eq(mailOutbox.id, id))
    .run()
}

/** At start: what another (stopped) process was sending is queued, due now. */
export function releaseUnsent() {
  return getDb()
    .update(mailOutbox)
    .set({ state: 'queued', dueAt: new Date() })
    .where(and(eq(mailOutbox.state, 'sending'), ne(mailOutbox.owner, OWNER)))
    .run().changes
}

/** Due queued rows, oldest first, at most `limit`, none in hand: each is now this process's. */
export function claimDue(limit: number, inHand: ReadonlySet<number>): MailOutboxRow[] {
  const db = getDb()
  const ids = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.state, 'queued'),
        lte(mailOutbox.dueAt, new Date()),
        notInArray(mailOutbox.id, [...inHand]),
      ),
    )
    .orderBy(asc(mailOutbox.dueAt), asc(mailOutbox.id))
    .limit(limit)
    .all()
    .map((row) => row.id)
  if (!ids.length) return []
  // Compare-and-set: a row is claimed only while still queued.
  return db
    .update(mailOutbox)
    .set({ state: 'sending', owner: OWNER })
    .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.state, 'queued')))
    .returning()
    .all()
}

/** When the next queued row falls due (null: none). */
export function nextDueAt(): Date | null {
  const row = getDb()
    .select({ at: min(mailOutbox.dueAt) })
    .from(mailOutbox)
    .where(eq(mailOutbox.state, 'queued'))
    .get()
  return row?.at ?? null
}
