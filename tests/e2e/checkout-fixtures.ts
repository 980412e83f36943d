/**
 * Checkout journeys' set-up through the app's public API, as a script would do it:
 * the demo client signs in, creates a draft and saves a flight plan (the server
 * computes and stores the quote). No test-only paths in the app.
 */
import { randomBytes } from 'node:crypto'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

import { e2eOrigin } from '../setup/e2e-env.ts'
import { DEMO_PASSWORD } from './fixtures.ts'

export const DEMO_CLIENT_EMAIL = 'client@example.com'

/** About 4 ha in Constantia, Cape Town: the local tier from the Cape Town hub. */
const CONSTANTIA_AREA = [
  { latitude: -34.0125, longitude: 18.4305 },
  { latitude: -34.0125, longitude: 18.4325 },
  { latitude: -34.0145, longitude: 18.4325 },
  { latitude: -34.0145, longitude: 18.4305 },
]

export async function createQuotedProjectViaApi(
  request: APIRequestContext,
  name = `Vineyard survey ${randomBytes(3).toString('hex')}`,
  client = { email: DEMO_CLIENT_EMAIL, password: DEMO_PASSWORD },
  origin = e2eOrigin,
) {
  // A second sign-in in one test carries the first one's cookie: say where it comes from.
  const login = await request.post('/api/auth/login', { data: client, headers: { Origin: origin } })
  expect(login.status()).toBe(200)
  const { sessionId } = (await login.json()) as { sessionId: string }
  const headers = { 'x-session-id': sessionId }
  const draft = await request.post('/api/client/projects/draft', {
    headers,
    data: {
      name,
      projectType: 'agricultural-mapping',
      address: 'Constantia, Cape Town, South Africa',
      coordinates: { lat: -34.0135, lng: 18.4315 },
      description: 'Orthomosaic of the north block',
    },
  })
  expect(draft.status()).toBe(201)
  const { id } = (await draft.json()) as { id: number }
  const complete = await request.put(`/api/client/projects/${id}/complete`, {
    headers,
    data: { areas: [{ coordinates: CONSTANTIA_AREA.map((c, i) => ({ pointNumber: i + 1, ...c })) }] },
  })
  expect(complete.status()).toBe(200)
  const project = (await complete.json()) as { id: number; name: string; quoteAmount: number; status: string }
  expect(project.status).toBe('pending')
  expect(project.quoteAmount).toBeGreaterThan(0)
  return project
}

/**
 * Pays a quoted project as the checkout and the gateway would, without a browser: the client
 * accepts the terms over the API (with billing details if given), and the PayFast simulator is
 * posted the signed form with Pay, so its signed ITN settles the payment before it answers.
 */
export async function payViaApi(
  request: APIRequestContext,
  project: { id: number; quoteAmount: number },
  client = { email: DEMO_CLIENT_EMAIL, password: DEMO_PASSWORD },
  billing: { vatNumber?: string; billingAddress?: string } = {},
  origin = e2eOrigin,
) {
  const login = await request.post('/api/auth/login', { data: client, headers: { Origin: origin } })
  expect(login.status()).toBe(200)
  const { sessionId } = (await login.json()) as { sessionId: string }
  const accepted = await request.post('/api/client/accept-terms', {
    headers: { 'x-session-id': sessionId, Origin: origin },
    data: { projectId: project.id, quoteAmount: project.quoteAmount, termsAccepted: true, ...billing },
  })
  expect(accepted.status(), await accepted.text()).toBe(200)
  const { paymentData } = (await accepted.json()) as { paymentData: Record<string, string> }
  const paid = await request.post('/payfast-simulator/eng/process', {
    headers: { Origin: origin },
    form: { ...paymentData, _simulator_action: 'pay' },
    maxRedirects: 0,
  })
  expect(paid.status()).toBe(302)
}

/** About 410 ha around Constantia: a re-plan far larger than the quote the terms were accepted for. */
const LARGE_CONSTANTIA_AREA = [
  { latitude: -34.0, longitude: 18.42 },
  { latitude: -34.0, longitude: 18.442 },
  { latitude: -34.0185, longitude: 18.442 },
  { latitude: -34.0185, longitude: 18.42 },
]

/** Saves a new flight plan for the project through the API, as the client's planner would. */
export async function replanViaApi(
  request: APIRequestContext,
  projectId: number,
  coordinates = LARGE_CONSTANTIA_AREA,
  client = { email: DEMO_CLIENT_EMAIL, password: DEMO_PASSWORD },
) {
  // A second sign-in in one test carries the first one's cookie: say where it comes from.
  const login = await request.post('/api/auth/login', { data: client, headers: { Origin: e2eOrigin } })
  expect(login.status()).toBe(200)
  const { sessionId } = (await login.json()) as { sessionId: string }
  const complete = await request.put(`/api/client/projects/${projectId}/complete`, {
    headers: { 'x-session-id': sessionId },
    data: { areas: [{ coordinates: coordinates.map((c, i) => ({ pointNumber: i + 1, ...c })) }] },
  })
  expect(complete.status()).toBe(200)
  return (await complete.json()) as { id: number; quoteAmount: number }
}

/** How the app shows rand (en-ZA). */
export function rand(cents: number) {
  return new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR' }).format(cents / 100)
}

/** On a checkout page: accepts the terms and goes on to the PayFast stand-in (one more button without JavaScript). */
export async function acceptTermsToSimulator(page: Page) {
  await page.getByRole('button', { name: 'Accept terms & pay' }).click()
  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' })
  await terms.getByRole('checkbox', { name: /I Agree/ }).check()
  await terms.getByRole('button', { name: 'Accept & Pay' }).click()
  if (test.info().project.use.javaScriptEnabled === false) {
    await page.getByRole('button', { name: 'Continue to secure payment' }).click()
  }
  await expect(page).toHaveURL(/\/payfast-simulator\/eng\/process$/)
}
