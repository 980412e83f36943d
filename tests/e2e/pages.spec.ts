/**
 * Every page of the app, once per identity (signed out, a client, a pilot, an admin), in one
 * walk with JavaScript: axe finds no serious or critical violation, and at a 360 px phone
 * width nothing is wider than the screen. A page with a `<noscript>` fallback (the maps, the
 * 3D view, the planner's and the share page's hand-offs) is also checked as a browser without
 * JavaScript shows it; every other page's server HTML is the hydrated page's markup, and the
 * journeys tagged @no-js run its forms without JavaScript. SCREENSHOTS=1 also writes each
 * page at 1280 and 360 px to test-results/screenshots/, to be looked at by a person.
 *
 * The page list comes from the route files (Remix's own reading of `app/routes/`, as
 * tests/integration/route-fuzz.test.ts does), so a page added later is checked without
 * editing this test. Parameters are filled from data seeded through the app's API and the
 * e2e database (a quoted and a paid project, the pilot, a hub, a drone, a user). Tabs are
 * found on each page (`?tab=` links in its tab bars) and visited too.
 *
 * Deliberately not visited:
 * - resource routes: route files with no default export (the `api.*` routes, PDFs, the
 *   KML/CSV exports, healthcheck, logout, the PayFast simulator's validate endpoint,
 *   `admin.refunds.$refundId` and `admin.airspace.upload`, whose GET only redirects);
 * - layout routes without a path segment of their own (root).
 * A page that redirects (signed out → /login, a role's wrong dashboard) is checked where
 * it lands; each landing page and each error page is checked once per identity. Where a URL
 * lands is asked over HTTP first, so a landing already checked costs no page load, nor does a
 * document the server sent before (the same page for another identity); a page whose DOM is
 * one already checked in this run takes that verdict. PAGES_VERBOSE=1 prints each page's times.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type APIResponse, type Page } from '@playwright/test'
import { readConfig } from '@remix-run/dev/dist/config.js'

import { ADMIN_EMAIL, PILOT_EMAIL } from './admin-fixtures.ts'
import { settledPage, signIn } from './fixtures.ts'
import { seedPagesData, type SeededPages } from './pages-fixtures.ts'

const BLOCKING = new Set(['serious', 'critical'])

/**
 * Page states a route reaches through its query string rather than its path: dialogs opened
 * by `?view=`/`?terms=`/`?invoice=`/`?project=`. `{x}` is filled like a path parameter.
 */
const QUERY_STATES: Record<string, string[]> = {
  'routes/flight-planner': ['?projectId={quotedProjectId}', '?projectId={quotedProjectId}&view=quote'],
  'routes/checkout.$projectId': ['', '?terms=1'],
  'routes/dashboard': ['', '?tab=invoices&invoice={invoiceId}', '?project={paidProjectId}'],
  'routes/reset-password': ['?token=not-a-real-token'],
  'routes/unsubscribe': ['?token=not-a-real-token'],
}

/** Which seeded value fills each path parameter (a route may pick its own). */
const PARAMS_BY_ROUTE: Record<string, Record<string, string>> = {
  'routes/checkout.$projectId': { projectId: '{quotedProjectId}' },
}
const PARAMS: Record<string, string> = {
  projectId: '{paidProjectId}',
  droneId: '{droneId}',
  hubId: '{hubId}',
  pilotId: '{pilotId}',
  userId: '{clientId}',
  siteId: '{siteId}',
  // A share link's viewer: an unknown token shows its 404 page.
  token: 'not-a-real-token',
  '*': 'no-such-page',
}

interface PageRoute {
  id: string
  pattern: string
}

async function pageRoutes(): Promise<PageRoute[]> {
  const config = await readConfig(process.cwd(), 'production' as Parameters<typeof readConfig>[1])
  const manifest = config.routes as Record<
    string,
    { id: string; parentId?: string; path?: string; file: string }
  >
  const routes: PageRoute[] = []
  for (const route of Object.values(manifest)) {
    if (route.id === 'root') continue
    const source = fs.readFileSync(path.join(config.appDirectory, route.file), 'utf8')
    // A page renders something: a default export (its own or re-exported).
    if (!/export default|export \{[^}]*\bdefault\b/.test(source)) continue
    const parts: string[] = []
    for (let at: string | undefined = route.id; at; at = manifest[at]?.parentId) {
      if (manifest[at]?.path) parts.unshift(manifest[at]!.path!)
    }
    routes.push({ id: route.id, pattern: '/' + parts.join('/') })
  }
  return routes.sort((a, b) => a.pattern.localeCompare(b.pattern))
}

function urlsFor(route: PageRoute, seeded: SeededPages): string[] {
  const values = { ...PARAMS, ...PARAMS_BY_ROUTE[route.id] }
  const fillSeeded = (text: string) =>
    text.replace(/\{(\w+)\}/g, (_, key: string) => String(seeded[key as keyof SeededPages]))
  const pathname = route.pattern
    .replace(/:(\w+)\??/g, (_, name: string) => {
      if (!values[name]) throw new Error(`No seeded value for :${name} in ${route.id}; add one to PARAMS`)
      return values[name]!
    })
    .replace(/\*$/, values['*']!)
  return (QUERY_STATES[route.id] ?? ['']).map((query) => fillSeeded(pathname + query))
}

// The identities are independent: they spread over the workers, each with its own app and
// data (seeded the same on each by the global set-up).
test.describe.configure({ mode: 'parallel' })

let seeded: SeededPages
let routes: PageRoute[]

test.beforeAll(async () => {
  routes ??= await pageRoutes()
  seeded = seedPagesData()
})

const DESKTOP = { width: 1280, height: 720 }
const PHONE = { width: 360, height: 780 }

/**
 * axe cannot run in a page without JavaScript (its timers never fire). A page's no-JavaScript
 * fallback is analysed in a scripting page instead: the HTML the server sent, every script
 * removed and not loaded, `<noscript>` content shown as the browser shows it without
 * JavaScript. One scripting page serves a whole test (a new browser context per page cost
 * more than the check itself).
 */
let scripting: { page: Page; close: () => Promise<void>; served: { url: string; html: string } } | null = null

test.afterEach(async () => {
  await scripting?.close()
  scripting = null
})

/** The page as a browser without JavaScript shows `sent`, the document the server sent. */
async function withoutJavaScript(page: Page, sent: APIResponse, html: string): Promise<Page> {
  if (!scripting) {
    const context = await page.context().browser()!.newContext({ javaScriptEnabled: true })
    const copy = await context.newPage()
    const served = { url: '', html: '' }
    await copy.route('**/*', (route) =>
      route.request().url() === served.url
        ? route.fulfill({ body: served.html, contentType: 'text/html; charset=utf-8' })
        : route.request().resourceType() === 'script'
          ? route.abort()
          : route.continue(),
    )
    scripting = { page: copy, close: () => context.close(), served }
  }
  scripting.served.url = sent.url()
  scripting.served.html = html
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<noscript>/gi, '<div>')
    .replace(/<\/noscript>/gi, '</div>')
  await scripting.page.setViewportSize(DESKTOP)
  await scripting.page.goto(scripting.served.url)
  return scripting.page
}

/** The part of axe-core's `axe.run` this test reads. */
type AxeRun = (
  context: Document,
  options: { resultTypes: string[]; rules: Record<string, { enabled: boolean }> },
) => Promise<{
  violations: Array<{
    id: string
    impact?: string | null
    help: string
    nodes: Array<{ target: string[]; failureSummary?: string }>
  }>
}>

/** What the walk found on one page: axe's blocking violations and how far it overflows at 360 px. */
interface Verdict {
  violations: Array<{ impact: string; id: string; help: string; nodes: string[] }>
  overflowAtPhone: number
}

/**
 * axe's verdict and the overflow depend only on the document, its styles and the viewport: a
 * page whose DOM (scripts aside) is one already checked in this run (another role's) gets
 * that verdict instead of a second check. Playwright empties outputDir at the start of every
 * run, so nothing is reused across runs.
 */
async function fingerprintOf(page: Page) {
  const dom = await page.evaluate(() => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement
    for (const script of copy.querySelectorAll('script')) script.remove()
    for (const element of copy.querySelectorAll('[nonce]')) element.removeAttribute('nonce')
    return copy.outerHTML
  })
  return createHash('sha256').update(dom).digest('hex')
}

const checked = new Map<string, Verdict>()
const verdictFile = (fingerprint: string) =>
  path.join(test.info().project.outputDir, '.page-verdicts', `${fingerprint}.json`)

async function verdictOf(page: Page, name: string): Promise<{ verdict: Verdict; reused: boolean }> {
  const fingerprint = await fingerprintOf(page)
  const known = checked.get(fingerprint) ?? readJsonFile<Verdict>(verdictFile(fingerprint))
  if (known) {
    checked.set(fingerprint, known)
    return { verdict: known, reused: true }
  }
  const violations = await blockingViolations(page)
  if (process.env.SCREENSHOTS) await screenshot(page, DESKTOP, name)
  const overflowAtPhone = await overflowAt(page, PHONE, name)
  await page.setViewportSize(DESKTOP)
  const verdict = { violations, overflowAtPhone }
  checked.set(fingerprint, verdict)
  writeJsonWhole(verdictFile(fingerprint), verdict)
  return { verdict, reused: false }
}

async function blockingViolations(page: Page): Promise<Verdict['violations']> {
  // axe-core itself, once per document (AxeBuilder evaluates its 0.6 MB source twice per
  // analysis). Passes and incomplete results are not read: axe skips collecting them.
  await page.evaluate(axeSource())
  const disabled = await rulesThatCannotBlock(page)
  const results = await page.evaluate(
    (options) => (window as unknown as { axe: { run: AxeRun } }).axe.run(document, options),
    {
      resultTypes: ['violations'],
      rules: Object.fromEntries(disabled.map((id) => [id, { enabled: false }])),
    },
  )
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => ({
      impact: v.impact!,
      id: v.id,
      help: v.help,
      nodes: v.nodes
        .slice(0, 5)
        .map(
          (n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('').trim() ?? ''}`,
        ),
    }))
}

/**
 * How many pixels the page is wider than a screen of `size` (0: it fits), measured after the
 * page has laid itself out again at that width (two frames: resize observers, then layout).
 */
async function overflowAt(page: Page, size: { width: number; height: number }, name: string) {
  await page.setViewportSize(size)
  const overflow = await page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve(document.documentElement.scrollWidth - window.innerWidth)),
        ),
      ),
  )
  if (process.env.SCREENSHOTS) await screenshot(page, size, name)
  return overflow
}

async function screenshot(page: Page, size: { width: number }, name: string) {
  const file = name.replace(/[^\w-]+/g, '_').replace(/^_+|_+$/g, '') || 'home'
  await page.screenshot({ path: `test-results/screenshots/${file}-${size.width}.png`, fullPage: true })
}

let source: string | undefined
const axeSource = () => (source ??= fs.readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8'))

let nonBlockingRules: Promise<string[]> | undefined

/**
 * The rules none of whose failures can be serious or critical (axe's own metadata: the rule's
 * impact and each of its checks'): they cannot fail this test, so they are not run (among
 * them `region`, one of the slowest on a long page). Read once, from a page with axe in it.
 */
function rulesThatCannotBlock(page: Page): Promise<string[]> {
  nonBlockingRules ??= page
    .evaluate(() => {
      interface Audit {
        rules: Array<{ id: string; impact?: string; any: unknown[]; all: unknown[]; none: unknown[] }>
        data: { checks: Record<string, { impact?: string } | undefined> }
      }
      const audit = (window as unknown as { axe: { _audit: Audit } }).axe._audit
      return audit.rules
        .filter((rule) =>
          [
            rule.impact,
            ...[...rule.any, ...rule.all, ...rule.none].map((check) => {
              const id = typeof check === 'string' ? check : (check as { id: string }).id
              return audit.data.checks[id]?.impact
            }),
          ].every((impact) => impact === 'minor' || impact === 'moderate'),
        )
        .map((rule) => rule.id)
    })
    .catch((error: unknown) => {
      nonBlockingRules = undefined
      throw error
    })
  return nonBlockingRules
}

/**
 * A page's verdicts (with JavaScript, and its no-JavaScript fallback) and tab links, by the
 * document the server sent (scripts and nonces aside): the hydrated page is that document's, so
 * another identity sent the same one needs no page load. Files, as the verdicts, for both workers.
 */
interface SentPage {
  verdicts: Array<[string, Verdict]>
  tabs: string[]
}

function sentPageFile(html: string) {
  const document = html.replace(/<script\b[\s\S]*?<\/script>/gi, '').replace(/\snonce="[^"]*"/g, '')
  const fingerprint = createHash('sha256').update(document).digest('hex')
  return path.join(test.info().project.outputDir, '.pages-sent', `${fingerprint}.json`)
}

function readSentPage(html: string): SentPage | undefined {
  return readJsonFile<SentPage>(sentPageFile(html))
}

function saveSentPage(html: string, sentPage: SentPage) {
  writeJsonWhole(sentPageFile(html), sentPage)
}

/** Written whole then renamed: the other worker never reads half a file. */
function writeJsonWhole(file: string, value: unknown) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(`${file}.${process.pid}`, JSON.stringify(value))
  fs.renameSync(`${file}.${process.pid}`, file)
}

function readJsonFile<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T
  } catch {
    return undefined
  }
}

function problemsOf(verdict: Verdict, where: string) {
  return [
    ...verdict.violations.map(
      (v) => `${where}: [${v.impact}] ${v.id} — ${v.help}\n    ${v.nodes.join('\n    ')}`,
    ),
    ...(verdict.overflowAtPhone > 0
      ? [`${where}: ${verdict.overflowAtPhone} px wider than a ${PHONE.width} px screen`]
      : []),
  ]
}

/**
 * Whether this part is the first of its identity's parts to land on `key` (a page, or an error
 * page by status): the parts run in any worker, so the claim is a file created once.
 */
function claimLanding(who: string, key: string) {
  const dir = path.join(test.info().project.outputDir, '.page-landings')
  fs.mkdirSync(dir, { recursive: true })
  const name = createHash('sha256').update(`${who}\n${key}`).digest('hex')
  try {
    fs.closeSync(fs.openSync(path.join(dir, name), 'wx'))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** Part `part` of `parts` of the routes (every `parts`-th one), so one identity's pages spread over the workers. */
async function checkEveryPage(page: Page, who: string, part: number, parts: number) {
  const failures: string[] = []
  const seen = new Set<string>()
  let fresh = 0
  const queue = routes.filter((_, i) => i % parts === part).flatMap((route) => urlsFor(route, seeded))
  await page.setViewportSize(DESKTOP)
  for (let i = 0; i < queue.length; i++) {
    const url = queue[i]!
    const began = Date.now()
    // Where the URL lands, over plain HTTP with the session's cookies: a redirect to a page
    // already checked (a role's wrong pages, signed-out pages → /login) costs no page load.
    const sent = await page.request.get(url)
    const landed = new URL(sent.url())
    landed.searchParams.delete('redirectTo')
    const status = sent.status()
    const key = status >= 400 ? `error ${status}` : landed.pathname + landed.search
    if (seen.has(key) || !claimLanding(who, key)) continue
    seen.add(key)
    const html = await sent.text()
    // The same document as a page already checked (another identity's): its verdicts and tabs, no load.
    const known = readSentPage(html)
    if (known) {
      for (const [name, verdict] of known.verdicts)
        failures.push(...problemsOf(verdict, `${who} ${url} (${key})${name}`))
      for (const tab of known.tabs) if (!queue.includes(tab)) queue.push(tab)
      if (process.env.PAGES_VERBOSE)
        console.log(`[pages] ${who} ${url} (${key}) sent as a page before: no load`)
      continue
    }
    await page.goto(url)
    await settledPage(page)
    const loaded = Date.now()
    const where = `${who} ${url} (${key})`
    const withJs = await verdictOf(page, key)
    failures.push(...problemsOf(withJs.verdict, where))
    if (!withJs.reused) fresh++
    const verdicts: SentPage['verdicts'] = [['', withJs.verdict]]
    // A fallback for browsers without JavaScript is a page of its own: checked as they show it.
    if (/<noscript>/i.test(html)) {
      const fallback = await verdictOf(await withoutJavaScript(page, sent, html), `${key} without JavaScript`)
      failures.push(...problemsOf(fallback.verdict, `${where} without JavaScript`))
      if (!fallback.reused) fresh++
      verdicts.push([' without JavaScript', fallback.verdict])
    }
    if (process.env.PAGES_VERBOSE) {
      console.log(
        `[pages] ${where} load ${loaded - began} ms, checks ${withJs.reused ? 'same page as before' : `${Date.now() - loaded} ms`}`,
      )
    }
    // Tabs are pages too: follow this page's tab links (`?tab=`) once, from the page they
    // belong to (not from a dialog route drawn over it, which another part may visit).
    const tabs = await page
      .locator('nav[aria-label] a[href*="tab="]')
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))
    const ownTabs = tabs
      .map((href) => new URL(href))
      .filter((tab) => tab.origin === landed.origin && tab.pathname === landed.pathname)
      .map((tab) => tab.pathname + tab.search)
    for (const tab of ownTabs) if (!queue.includes(tab)) queue.push(tab)
    saveSentPage(html, { verdicts, tabs: ownTabs })
  }
  console.log(
    `[pages] ${who}, part ${part + 1} of ${parts}: ${seen.size} pages (${fresh} checked, the rest identical to a page before; landings another part checked are left to it)`,
  )
  expect(seen.size).toBeGreaterThan(0)
  expect(failures, failures.join('\n')).toEqual([])
}

/** Each identity's walk in parts of about a dozen pages, each part a test of its own. */
const IDENTITIES = [
  { who: 'signed out', email: null, parts: 1 },
  { who: 'a pilot', email: () => PILOT_EMAIL, parts: 2 },
  { who: 'a client', email: () => seeded.clientEmail, parts: 3 },
  { who: 'an admin', email: () => ADMIN_EMAIL, parts: 4 },
]

test('the walk covers the app: more than 30 page routes', () => {
  expect(routes.length).toBeGreaterThan(30)
})

for (const { who, email, parts } of IDENTITIES) {
  for (let part = 0; part < parts; part++) {
    const title = `every page ${who === 'signed out' ? who : `as ${who}`}${parts > 1 ? ` (part ${part + 1} of ${parts})` : ''}`
    test(`${title}: no serious or critical axe violation, nothing wider than a phone`, async ({ page }) => {
      test.setTimeout(300_000)
      if (email) await signIn(page, email())
      await checkEveryPage(page, who, part, parts)
    })
  }
}
