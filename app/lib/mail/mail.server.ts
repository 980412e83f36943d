/**
 * The one way the app sends e-mail. With SMTP_URL set, nodemailer sends over SMTP;
 * otherwise each message is written to the local outbox folder (MAIL_OUTBOX_DIR) as
 * an .eml file plus a .json summary, listed at /dev/outbox in development. What
 * `sendEmailSafely` sends is kept in the `mail_outbox` table until sent, so a shutdown
 * never loses it (`mail-outbox.server.ts`).
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { getEnv } from '#app/lib/config/env.server.ts'
import { startRowQueue } from '#app/lib/jobs/row-queue.server.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import nodemailer, { type Transporter } from 'nodemailer'

import {
  claimDue,
  forgetSent,
  keepUnsent,
  messageOf,
  nextDueAt,
  queueAgain,
  releaseUnsent,
} from './mail-outbox.server.ts'

registerStatefulModule('mail')

export interface EmailMessage {
  to: string
  subject: string
  html: string
  text: string
  replyTo?: string
  /** Extra headers, e.g. List-Unsubscribe on marketing mail. */
  headers?: Record<string, string>
  /** Files sent with the message; one with a `cid` is shown inline where the HTML says `cid:<cid>`. */
  attachments?: Array<{ filename: string; content: Buffer; contentType: string; cid?: string }>
}

export interface OutboxEntry {
  id: string
  to: string
  subject: string
  text: string
  createdAt: string
}

let transport: { key: string; transporter: Transporter } | undefined

function getTransport(): Transporter {
  const env = getEnv()
  const key = env.SMTP_URL ?? 'outbox'
  if (transport?.key !== key) {
    const transporter = env.SMTP_URL
      ? nodemailer.createTransport(env.SMTP_URL)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
    transport = { key, transporter }
  }
  return transport.transporter
}

export async function sendEmail(
  message: EmailMessage,
  { messageId, signal }: { messageId?: string; signal?: AbortSignal } = {},
): Promise<void> {
  const env = getEnv()
  const info = await getTransport().sendMail({
    messageId,
    signal,
    from: env.MAIL_FROM,
    to: message.to,
    replyTo: message.replyTo,
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: message.headers,
    attachments: message.attachments,
  })
  if (!env.SMTP_URL) {
    const raw = (info as unknown as { message: Buffer }).message
    await writeToOutbox(message, raw)
  }
}

async function writeToOutbox(message: EmailMessage, raw: Buffer) {
  const dir = path.resolve(getEnv().MAIL_OUTBOX_DIR)
  await fs.mkdir(dir, { recursive: true })
  const id = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
  const entry: OutboxEntry = {
    id,
    to: message.to,
    subject: message.subject,
    text: message.text,
    createdAt: new Date().toISOString(),
  }
  await fs.writeFile(path.join(dir, `${id}.eml`), raw)
  await fs.writeFile(path.join(dir, `${id}.json`), JSON.stringify(entry, null, 2))
}

/** Newest first; for the development outbox page. */
export async function listOutbox(limit = 50): Promise<OutboxEntry[]> {
  const dir = path.resolve(getEnv().MAIL_OUTBOX_DIR)
  let names: string[]
  try {
    names = await fs.readdir(dir)
  } catch {
    return []
  }
  const jsonFiles = names
    .filter((n) => n.endsWith('.json'))
    .sort()
    .reverse()
    .slice(0, limit)
  const entries = await Promise.all(
    jsonFiles.map(async (n) => JSON.parse(await fs.readFile(path.join(dir, n), 'utf8')) as OutboxEntry),
  )
  return entries
}

let lastFailure: { at: Date; subject: string; error: string } | undefined

/** The last mail this process failed to send (for the admin's health panel), if any. */
export function lastMailFailure() {
  return lastFailure
}

/** Sends still under way, each with its controller: a shutdown waits for them until its deadline. */
const sending = new Map<Promise<unknown>, AbortController>()
/** Past the shutdown's deadline: a send cut off now stays in the outbox for the next start. */
let cutOff = false

/** One send, tracked for `mailSettled`; `signal` (the outbox's) stops it as well. */
function trackedSend(message: EmailMessage, messageId: string | undefined, signal?: AbortSignal) {
  const controller = new AbortController()
  const stop = () => controller.abort(signal?.reason)
  signal?.addEventListener('abort', stop, { once: true })
  const sent = sendEmail(message, { messageId, signal: controller.signal })
  sending.set(sent, controller)
  void sent
    .catch(() => {})
    .finally(() => {
      sending.delete(sent)
      signal?.removeEventListener('abort', stop)
    })
  return { sent, controller }
}

function recordFailure(message: EmailMessage, error: unknown) {
  console.warn(`[mail] could not send "${message.subject}" to ${message.to}:`, error)
  lastFailure = {
    at: new Date(),
    subject: message.subject,
    error: (error instanceof Error ? error.message : String(error)).slice(0, 300),
  }
}

/** The first retry of a failed message waits this long (then doubles); it is given up after MAX_ATTEMPTS. */
const RETRY_BASE_MS = 60_000
const MAX_ATTEMPTS = 8

/**
 * Sends without letting a mail failure undo the business action that caused it
 * (the action has already committed). The message is kept in the outbox until the SMTP
 * server takes it: a failure is logged for the operator and retried by the outbox, and a
 * send a shutdown cuts off is sent at the next start.
 */
export function sendEmailSafely(message: EmailMessage): Promise<boolean> {
  const kept = keepUnsent(message)
  // Past the shutdown's deadline nothing new goes out: the next start sends it.
  if (cutOff) return Promise.resolve(false)
  const { sent, controller } = trackedSend(message, kept?.messageId)
  return sent.then(
    () => {
      if (kept) forgetSent(kept.id)
      return true
    },
    (error: unknown) => {
      if (controller.signal.aborted) return false
      recordFailure(message, error)
      if (kept) queueAgain(kept.id, { attempts: 1, error, dueAt: new Date(Date.now() + RETRY_BASE_MS) })
      return false
    },
  )
}

/**
 * Resolves once every mail started so far has been sent or has failed (each test file's end).
 * With a `deadline` (shutdown), the sends still under way then are stopped (an SMTP server
 * that has not answered has not taken the message) and stay in the outbox for the next start;
 * resolves with how many were kept so.
 */
export async function mailSettled({ deadline }: { deadline?: number } = {}): Promise<number> {
  while (sending.size) {
    const all = Promise.allSettled([...sending.keys()])
    const wait = deadline === undefined ? Infinity : deadline - Date.now()
    if (wait <= 0) break
    if (wait === Infinity) await all
    else await Promise.race([all, new Promise((resolve) => setTimeout(resolve, wait).unref())])
  }
  const kept = sending.size
  if (!kept) return 0
  cutOff = true
  for (const controller of sending.values()) controller.abort(new Error('The server is stopping.'))
  await Promise.allSettled([...sending.keys()])
  console.warn(`[mail] ${kept} message(s) not sent by the shutdown's deadline: kept for the next start`)
  return kept
}

/**
 * The outbox (server.ts, at start): what a stopped process left unsent is sent now, and a
 * failed message again after its back-off (given up, and logged, after MAX_ATTEMPTS).
 */
export function startMailOutbox({ pollMs = 60_000 }: { pollMs?: number } = {}) {
  cutOff = false
  const released = releaseUnsent()
  if (released) console.log(`[mail] ${released} message(s) left unsent by the last run: sending them now`)
  return startRowQueue({
    name: 'mail outbox',
    concurrency: 2,
    pollMs,
    claim: (limit: number, inHand: ReadonlySet<number>) => (cutOff ? [] : claimDue(limit, inHand)),
    keyOf: (row) => row.id,
    pending: () => (nextDueAt()?.getTime() ?? Infinity) <= Date.now(),
    nextDueAt,
    async work(row, signal) {
      const message = messageOf(row)
      try {
        await trackedSend(message, row.messageId, signal).sent
      } catch (error) {
        // Stopped (a shutdown): the row stays this process's, and the next start sends it.
        if (cutOff || signal.aborted) return
        recordFailure(message, error)
        throw error
      }
      forgetSent(row.id)
    },
    retry: {
      baseMs: RETRY_BASE_MS,
      attemptsOf: (row) => row.attempts,
      record(row, failure) {
        if (failure.attempts < MAX_ATTEMPTS) return queueAgain(row.id, failure)
        console.error(`[mail] gave up on "${messageOf(row).subject}" after ${failure.attempts} attempts`)
        forgetSent(row.id)
      },
    },
  })
}
