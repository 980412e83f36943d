/**
 * axe on every page of the app, signed out and as a client, a pilot and an admin, with
 * JavaScript and without (the two Playwright projects): no serious or critical violation.
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
 * lands is asked over HTTP first, so a landing already checked costs no page load; a page
 * whose DOM is one axe already analysed in this run (the same page for another identity, or
 * the same HTML with and without JavaScript) takes that verdict. A11Y_VERBOSE=1 prints each
 * page's times.
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

/**
 * axe cannot run in a page without JavaScript (its timers never fire). Without JavaScript the
 * page as the server sent it is analysed in a scripting page instead: the same HTML and
 * styles, every script removed and not loaded, `<noscript>` content shown as the browser
 * shows it without JavaScript. One scripting page serves a whole test (a new browser
 * context per page cost more than the check itself).
 */
let scripting: { page: Page; close: () => Promise<void>; served: { url: string; html: string } } | null = null

test.afterEach(async () => {
  await scripting?.close()
  scripting = null
})

const withJavaScript = () => test.info().project.use.javaScriptEnabled !== false

/** The page to analyse at `url`, whose document the server sent as `sent`. */
async function analysable(page: Page, url: string, sent: APIResponse): Promise<Page> {
  if (withJavaScript()) {
    await page.goto(url)
    await settledPage(page)
    return page
  }
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
  // The document as a browser without JavaScript gets it (no need to render it there first).
  scripting.served.url = sent.url()
  scripting.served.html = (await sent.text())
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<noscript>/gi, '<div>')
    .replace(/<\/noscript>/gi, '</div>')
  await scripting.page.setViewportSize(page.viewportSize()!)
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

type Blocking = Array<{ impact: string; id: string; help: string; nodes: string[] }>

/**
 * axe's verdict depends only on the document, its styles and the viewport: a page whose DOM
 * (scripts aside) is one already analysed in this run (another role's, or the other
 * project's) gets that verdict instead of a second analysis. Playwright empties outputDir at
 * the start of every run, so nothing is reused across runs. What hydration alone changes and
 * neither a style nor axe reads is left out, so a page the same with and without JavaScript
 * is analysed once: the root's `data-hydrated` mark, the `modulepreload` links and `value=""`
 * on a text field (an empty value either way).
 */
async function fingerprintOf(page: Page) {
  const dom = await page.evaluate(() => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement
    for (const script of copy.querySelectorAll('script')) script.remove()
    for (const element of copy.querySelectorAll('[nonce]')) element.removeAttribute('nonce')
    copy.removeAttribute('data-hydrated')
    for (const link of copy.querySelectorAll('link[rel="modulepreload"]')) link.remove()
    const valued = /^(button|submit|reset|image|checkbox|radio)$/
    for (const input of copy.querySelectorAll<HTMLInputElement>('input[value=""]')) {
      if (!valued.test(input.type)) input.removeAttribute('value')
    }
    return copy.outerHTML
  })
  const size = page.viewportSize()
  return createHash('sha256').update(`${size?.width}x${size?.height}\n${dom}`).digest('hex')
}

const analysed = new Map<string, Blocking>()
const verdictFile = (fingerprint: string) =>
  path.join(test.info().project.outputDir, '.a11y-verdicts', `${fingerprint}.json`)

async function blockingViolations(page: Page): Promise<{ found: Blocking; reused: boolean }> {
  const fingerprint = await fingerprintOf(page)
  const known = analysed.get(fingerprint) ?? readVerdict(verdictFile(fingerprint))
  if (known) {
    analysed.set(fingerprint, known)
    return { found: known, reused: true }
  }
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
  const found = results.violations
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
  analysed.set(fingerprint, found)
  fs.mkdirSync(path.dirname(verdictFile(fingerprint)), { recursive: true })
  // Written whole then renamed: the other worker never reads half a verdict.
  const partial = `${verdictFile(fingerprint)}.${process.pid}`
  fs.writeFileSync(partial, JSON.stringify(found))
  fs.renameSync(partial, verdictFile(fingerprint))
  return { found, reused: false }
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

function readVerdict(file: string): Blocking | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Blocking
  } catch {
    return undefined
  }
}

async function checkEveryPage(page: Page, who: string) {
  const failures: string[] = []
  const checked = new Set<string>()
  let axeRuns = 0
  const queue = routes.flatMap((route) => urlsFor(route, seeded))
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
    if (checked.has(key)) continue
    checked.add(key)
    const analysedPage = await analysable(page, url, sent)
    const loaded = Date.now()
    const { found, reused } = await blockingViolations(analysedPage)
    if (!reused) axeRuns++
    const lines = found.map(
      (v) => `${who} ${url} (${key}): [${v.impact}] ${v.id} — ${v.help}\n    ${v.nodes.join('\n    ')}`,
    )
    failures.push(...lines)
    if (process.env.A11Y_VERBOSE) {
      console.log(
        `[a11y] ${who} ${url} load ${loaded - began} ms, axe ${reused ? 'same page as before' : `${Date.now() - loaded} ms`}`,
        lines.join('\n'),
      )
    }
    // Tabs are pages too: follow this page's tab links (`?tab=`) once.
    const tabs = await analysedPage
      .locator('nav[aria-label] a[href*="tab="]')
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))
    for (const href of tabs) {
      const tab = new URL(href)
      if (tab.origin === landed.origin && !queue.includes(tab.pathname + tab.search)) {
        queue.push(tab.pathname + tab.search)
      }
    }
  }
  console.log(
    `[a11y] ${who}: ${checked.size} pages checked (${axeRuns} analysed, the rest as an identical page before)`,
  )
  expect(checked.size).toBeGreaterThan(5)
  expect(failures, failures.join('\n')).toEqual([])
}

test('every page signed out has no serious or critical axe violation', async ({ page }) => {
  test.setTimeout(1_200_000)
  await checkEveryPage(page, 'signed out')
})

for (const role of ['client', 'pilot', 'admin'] as const) {
  test(`every page as ${role === 'admin' ? 'an' : 'a'} ${role} has no serious or critical axe violation`, async ({
    page,
  }) => {
    test.setTimeout(1_200_000)
    const email = role === 'client' ? seeded.clientEmail : role === 'pilot' ? PILOT_EMAIL : ADMIN_EMAIL
    await signIn(page, email)
    await checkEveryPage(page, role)
  })
}
