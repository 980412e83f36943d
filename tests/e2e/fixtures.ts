/** Shared helpers for the journeys. */
import { randomBytes } from 'node:crypto'
import { expect, type Page } from '@playwright/test'

import { readSavedMail, type ReceivedMail } from '../helpers/smtp-server.ts'
import { e2eMailDir } from '../setup/e2e-env.ts'

export const DEMO_PASSWORD = 'kestrel-demo'

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.test`
}

export async function login(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  // Hashing the password takes seconds on a loaded 2-core machine: wait on the condition, not a short timer.
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 60_000 })
}

/** Waits for an e-mail to arrive at the test SMTP server. */
export async function waitForMail(predicate: (m: ReceivedMail) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = readSavedMail(e2eMailDir).find(predicate)
    if (found) return found
    if (Date.now() > deadline) throw new Error('No matching e-mail arrived in time')
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * The page's uplink slowed to `uploadBytesPerSecond` through DevTools, and the ways back: cut
 * or full speed, on the same session (DevTools keeps one set of conditions per session).
 */
export async function slowUplink(page: Page, uploadBytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  const emulate = (offline: boolean, throughput: number, latency = 0) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline,
      latency,
      downloadThroughput: offline ? 0 : -1,
      uploadThroughput: throughput,
    })
  await emulate(false, uploadBytesPerSecond, 20)
  return {
    offline: () => emulate(true, 0),
    fullSpeed: () => emulate(false, -1),
  }
}
