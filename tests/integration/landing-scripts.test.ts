/**
 * The landing page is sent without scripts (`handle.hydrate === false`): no module script and
 * no module preload in its HTML, so a first visit loads 0 KiB of JavaScript; a page that needs
 * JavaScript (the sign-in form) still carries React and Remix.
 */
import { httpAppForFile } from '#tests/helpers/http-app.ts'
import { expect, test } from 'vitest'

const app = httpAppForFile()
const MODULE_SCRIPTS = /<script[^>]*type="module"|rel="modulepreload"/

test('the landing page carries no script; the sign-in page does', async () => {
  const landing = await fetch(`${app.base}/`)
  expect(landing.status).toBe(200)
  const html = await landing.text()
  expect(html).toContain('id="contact"')
  expect(html).not.toMatch(MODULE_SCRIPTS)
  expect(html).not.toContain('__remixContext')

  const login = await (await fetch(`${app.base}/login`)).text()
  expect(login).toMatch(MODULE_SCRIPTS)
}, 120_000)
