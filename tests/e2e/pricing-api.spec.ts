/**
 * The built app's quote and map-data API over HTTP, as a script would call it
 * (x-session-id), against the demo seed (three hubs, the national airspace).
 */
import { expect, test } from '@playwright/test'

import { DEMO_PASSWORD } from './fixtures.ts'

test.describe('pricing API', () => {
  let sessionId: string

  test.beforeAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL })
    const login = await api.post('/api/auth/login', {
      data: { email: 'client@example.com', password: DEMO_PASSWORD },
    })
    expect(login.status()).toBe(200)
    sessionId = (await login.json()).sessionId
    await api.dispose()
  })

  test('quote beside Cape Town International', async ({ request }) => {
    const response = await request.post('/api/quote', {
      headers: { 'x-session-id': sessionId },
      data: {
        areas: [
          {
            coordinates: [
              { latitude: -33.99, longitude: 18.62 },
              { latitude: -33.99, longitude: 18.63 },
              { latitude: -33.98, longitude: 18.63 },
            ],
          },
        ],
      },
    })
    expect(response.status()).toBe(200)
    const quote = await response.json()
    expect(quote).toMatchObject({
      nearestHub: { name: 'Cape Town' },
      aviationFee: 85000,
      airspaceZone: 'CTR FACT 118.10',
      travelFee: 20000,
      warnings: ['Needs SACAA/ATC approval — may delay or prevent the flight'],
    })
    expect(quote.totalInCents).toBe(quote.subtotal + quote.vatAmount)
  })

  test('bad input and signed out', async ({ request }) => {
    const outside = await request.post('/api/quote', {
      headers: { 'x-session-id': sessionId },
      data: {
        areas: [
          {
            coordinates: [
              { latitude: 51.5, longitude: -0.12 },
              { latitude: 51.5, longitude: -0.11 },
              { latitude: 51.51, longitude: -0.11 },
            ],
          },
        ],
      },
    })
    expect(outside.status()).toBe(400)
    expect((await outside.json()).error).toBe('Survey areas must be in South Africa')
    expect((await request.get('/api/hubs')).status()).toBe(401)
  })

  test('map data: hubs, zones and the no-fly KML', async ({ request }) => {
    const hubs = await (await request.get('/api/hubs', { headers: { 'x-session-id': sessionId } })).json()
    expect(hubs.map((h: { name: string }) => h.name)).toEqual(
      expect.arrayContaining(['Cape Town', 'Durban', 'Johannesburg']),
    )
    const zones = await (
      await request.get('/api/airspace/zones', { headers: { 'x-session-id': sessionId } })
    ).json()
    expect(zones.length).toBeGreaterThanOrEqual(255)
    const kml = await request.get('/no-fly-zones.kml')
    expect(kml.status()).toBe(200)
    expect(await kml.text()).toContain('NOT FOR NAVIGATION')
  })
})
