/**
 * A real SMTP server, in-process (the `smtp-server` package), for tests: the app sends
 * with nodemailer over SMTP and tests read what arrived. Optionally also writes each
 * message to a folder, so another process (a Playwright worker) can read it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import PostalMime from 'postal-mime'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll } from 'vitest'

export interface ReceivedMail {
  to: string[]
  from: string
  subject: string
  text: string
  html: string
  /** Attached files (an inline image has a `contentId`). */
  attachments: Array<{
    filename: string | null
    mimeType: string
    contentId: string | undefined
    size: number
  }>
  receivedAt: number
}

export async function startTestSmtpServer(
  options: {
    saveDir?: string
    port?: number
    /** Each message's recipient is accepted (and its text then sent) only once this settles: mail held in flight. */
    holdUntil?: Promise<unknown>
    /**
     * A slow server: each message is answered this long after its text has arrived, and taken
     * only if the client is still there to hear the answer (one that left has not sent it).
     */
    slowMs?: number
  } = {},
) {
  const messages: ReceivedMail[] = []
  /** Messages whose client left before the slow server answered (not taken). */
  const dropped: string[] = []
  const closedSessions = new Set<string>()
  /** Connections open, and slow answers not yet given: the server is quiet at 0. */
  const busy = { connections: 0, answers: 0 }
  /** Recipients asked for and not yet accepted (held by `holdUntil`). */
  const held = { count: 0 }
  if (options.saveDir) fs.mkdirSync(options.saveDir, { recursive: true })
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      busy.connections++
      callback()
    },
    onClose(session) {
      busy.connections--
      closedSessions.add(session.id)
    },
    onRcptTo(_address, _session, callback) {
      if (!options.holdUntil) return callback()
      held.count++
      void options.holdUntil.then(() => {
        held.count--
        callback()
      })
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', async () => {
        try {
          const raw = Buffer.concat(chunks)
          const parsed = await PostalMime.parse(raw)
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html ?? '',
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename,
              mimeType: a.mimeType,
              contentId: a.contentId,
              size: typeof a.content === 'string' ? a.content.length : a.content.byteLength,
            })),
            receivedAt: Date.now(),
          }
          if (options.slowMs) {
            busy.answers++
            await new Promise((resolve) => setTimeout(resolve, options.slowMs))
            busy.answers--
            if (closedSessions.has(session.id)) {
              dropped.push(mail.subject)
              return callback()
            }
          }
          messages.push(mail)
          if (options.saveDir) {
            const name = `${mail.receivedAt}-${Math.random().toString(36).slice(2, 8)}.json`
            // Written aside, then renamed: a test worker polling the folder never reads half a file.
            const file = path.join(options.saveDir, name)
            fs.writeFileSync(`${file}.partial`, JSON.stringify(mail))
            fs.renameSync(`${file}.partial`, file)
          }
          callback()
        } catch (error) {
          callback(error as Error)
        }
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()))
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : 0

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    dropped,
    /** No connection open and no answer pending. */
    quiet: () => busy.connections === 0 && busy.answers === 0,
    held,
    /** Waits for a message matching the predicate (polling; mail is asynchronous). */
    async waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs = 5000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = messages.find(predicate)
        if (found) return found
        if (Date.now() > deadline) throw new Error('No matching e-mail arrived in time')
        await new Promise((r) => setTimeout(r, 25))
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Reads the messages a (separate-process) test SMTP server saved to a folder. */
export function readSavedMail(saveDir: string): ReceivedMail[] {
  if (!fs.existsSync(saveDir)) return []
  return fs
    .readdirSync(saveDir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => JSON.parse(fs.readFileSync(path.join(saveDir, n), 'utf8')) as ReceivedMail)
}

export function extractLink(text: string, pathPrefix: string): string {
  const match = text.match(
    new RegExp(`https?://[^\\s"'<>]*${pathPrefix.replace(/[/?]/g, '\\$&')}[^\\s"'<>]*`),
  )
  if (!match) throw new Error(`No ${pathPrefix} link in the e-mail`)
  return match[0]
}

/** An `smtp://` address on which nothing listens any more: mail sent there fails. */
export async function unreachableSmtpUrl() {
  const server = await startTestSmtpServer()
  await server.close()
  return server.url
}

/**
 * A test file's SMTP server: started before its tests with `SMTP_URL` pointing at it,
 * closed after. Read the mail through the returned handle (valid once the tests run).
 */
export function withTestSmtp() {
  let server: Awaited<ReturnType<typeof startTestSmtpServer>> | undefined
  const current = () => {
    if (!server) throw new Error('withTestSmtp: the server starts in beforeAll')
    return server
  }
  beforeAll(async () => {
    server = await startTestSmtpServer()
    process.env.SMTP_URL = server.url
    resetEnvCache()
  })
  afterAll(async () => {
    delete process.env.SMTP_URL
    resetEnvCache()
    await server?.close()
  })
  return {
    get messages() {
      return current().messages
    },
    waitFor: (...args: Parameters<Awaited<ReturnType<typeof startTestSmtpServer>>['waitFor']>) =>
      current().waitFor(...args),
  }
}
