/** Shared helpers for the journeys. */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'

import { readSavedMail, type ReceivedMail } from '../helpers/smtp-server.ts'
import { e2eMailDir, e2eOrigin, e2eSessionsFile, e2eSharedDir } from '../setup/e2e-env.ts'

export const DEMO_PASSWORD = 'kestrel-demo'

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.test`
}

/** Signs in through the sign-in form (the form's own journeys; a journey that signs out). */
export async function login(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  // Hashing the password takes seconds on a loaded 2-core machine: wait on the condition, not a short timer.
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 60_000 })
}

let demoSessions: Record<string, string> | undefined

/**
 * Signed in as `email` without the sign-in form and without loading a page (the journey goes
 * where it starts): a demo account gets the session cookie the global set-up opened for this
 * worker's app, as a stored browser state would, any other account a new one over the API. A
 * journey that signs out asks for `{ ownSession: true }` (a new one over the API), so the
 * shared session is never ended; the sign-in form's own journeys use `login()`.
 */
export async function signIn(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
  { ownSession = false }: { ownSession?: boolean } = {},
) {
  demoSessions ??= JSON.parse(fs.readFileSync(e2eSessionsFile, 'utf8')) as Record<string, string>
  const shared = password === DEMO_PASSWORD && !ownSession ? demoSessions[email] : undefined
  if (shared) {
    await page
      .context()
      .addCookies([
        { name: 'kestrel_session', value: shared, url: e2eOrigin, httpOnly: true, sameSite: 'Lax' },
      ])
  } else {
    // page.request shares the page's cookies: the answer's session cookie lands in the browser.
    const res = await page.request.post('/api/auth/login', {
      data: { email, password },
      headers: { Origin: e2eOrigin },
      timeout: 60_000,
    })
    expect(res.status(), await res.text()).toBe(200)
  }
}

/**
 * `build(dir)` once per run for all the workers (each has its own app, but a GDAL-built raster
 * is the same for all): the first worker to ask builds into `dir` and saves the result, the
 * others wait for it. A builder that failed or died leaves the next one to build.
 */
export async function builtOncePerRun<T>(name: string, build: (dir: string) => Promise<T>): Promise<T> {
  const dir = path.join(e2eSharedDir, name)
  const done = path.join(dir, 'done.json')
  const owner = path.join(dir, 'owner.pid')
  const deadline = Date.now() + 300_000
  for (;;) {
    if (fs.existsSync(done)) return JSON.parse(fs.readFileSync(done, 'utf8')) as T
    fs.mkdirSync(e2eSharedDir, { recursive: true })
    try {
      fs.mkdirSync(dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (!isAlive(readPid(owner))) fs.rmSync(dir, { recursive: true, force: true })
      else if (Date.now() > deadline) throw new Error(`${name} was not built in time by another worker`)
      await new Promise((resolve) => setTimeout(resolve, 200))
      continue
    }
    fs.writeFileSync(owner, String(process.pid))
    try {
      const result = await build(dir)
      // Written whole then renamed: a waiting worker never reads half of it.
      fs.writeFileSync(`${done}.partial`, JSON.stringify(result))
      fs.renameSync(`${done}.partial`, done)
      return result
    } catch (error) {
      fs.rmSync(dir, { recursive: true, force: true })
      throw error
    }
  }
}

function readPid(file: string) {
  try {
    return Number(fs.readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}

/** Whether the process is running; a directory with no pid yet is just being claimed. */
function isAlive(pid: number | undefined) {
  if (pid === undefined) return true
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
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

interface RouterState {
  initialized: boolean
  navigation: { state: string }
  revalidation: string
  fetchers: Map<string, { state: string }>
}

/**
 * The page as it stays, for a check of the whole page (axe, a screenshot): with JavaScript,
 * hydrated (the root marks `<html data-hydrated>`), Remix idle (no navigation, revalidation or
 * fetcher under way), no lazy part (a map, the 3D view) still showing its "Loading…" stand-in
 * and every image that is not lazy loaded (map tiles); without JavaScript the loaded page is
 * all there is. A page that never gets there (one that polls) is taken as it is after 5 s.
 */
export async function settledPage(page: Page) {
  if (test.info().project.use.javaScriptEnabled === false) return
  // A page sent without scripts (`handle.hydrate === false`, the landing page) is all there is.
  if (!(await page.locator('script[type="module"]').count())) return
  await page
    .waitForFunction(
      () => {
        const router = (window as { __remixRouter?: { state: RouterState } }).__remixRouter
        if (!document.documentElement.hasAttribute('data-hydrated') || !router) return false
        const { initialized, navigation, revalidation, fetchers } = router.state
        if (!initialized || navigation.state !== 'idle' || revalidation !== 'idle') return false
        if ([...fetchers.values()].some((f) => f.state !== 'idle')) return false
        if ([...document.images].some((image) => !image.complete && image.loading !== 'lazy')) return false
        return ![...document.querySelectorAll('p')].some((p) => /^Loading\b.*…$/.test(p.textContent ?? ''))
      },
      undefined,
      { timeout: 5_000, polling: 50 },
    )
    .catch(() => {})
}
