/** Waiting for mail in the local outbox: some mail is sent after the response (by design). */
import { listOutbox, type OutboxEntry } from '#app/lib/mail/mail.server.ts'

export async function waitForOutbox(
  predicate: (m: OutboxEntry) => boolean,
  timeoutMs = 5000,
): Promise<OutboxEntry> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = (await listOutbox()).find(predicate)
    if (found) return found
    if (Date.now() > deadline) throw new Error('No matching e-mail reached the outbox in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}
