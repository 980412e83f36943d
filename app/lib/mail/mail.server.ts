/**
 * The one way the app sends e-mail. With SMTP_URL set, nodemailer sends over SMTP;
 * otherwise each message is written to the local outbox folder (MAIL_OUTBOX_DIR) as
 * an .eml file plus a .json summary, listed at /dev/outbox in development.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { getEnv } from '#app/lib/config/env.server.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import nodemailer, { type Transporter } from 'nodemailer'

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

export async function sendEmail(message: EmailMessage): Promise<void> {
  const env = getEnv()
  const info = await getTransport().sendMail({
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

/** Sends still under way: some go out after the response (a paid ITN's receipts), and shutdown waits for them. */
const sending = new Set<Promise<boolean>>()

/**
 * Sends without letting a mail failure undo the business action that caused it
 * (the action has already committed); the failure is logged for the operator.
 */
export function sendEmailSafely(message: EmailMessage): Promise<boolean> {
  const sent = sendEmail(message).then(
    () => true,
    (error: unknown) => {
      console.warn(`[mail] could not send "${message.subject}" to ${message.to}:`, error)
      lastFailure = {
        at: new Date(),
        subject: message.subject,
        error: (error instanceof Error ? error.message : String(error)).slice(0, 300),
      }
      return false
    },
  )
  sending.add(sent)
  void sent.finally(() => sending.delete(sent))
  return sent
}

/** Resolves once every mail started so far has been sent or has failed (shutdown, and each test file's end). */
export async function mailSettled() {
  while (sending.size) await Promise.allSettled([...sending])
}
