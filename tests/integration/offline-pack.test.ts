/**
 * The server's side of the offline job pack (ADR 140): the pilot's dashboard names its owner
 * (the service worker keeps only the owner's pages), nobody else's does, and every sign-out
 * tells the browser to drop the site's caches and storage.
 */
import { CLEAR_SITE_DATA_ON_SIGN_OUT, OWNER_HEADER } from '#app/domain/offline/cache-rules.ts'
import { action as apiLogout } from '#app/routes/api.auth.logout.ts'
import { loader as dashboard } from '#app/routes/dashboard.tsx'
import { action as pageLogout } from '#app/routes/logout.tsx'
import { signedInUser } from '#tests/factories.ts'
import { describe, expect, it } from 'vitest'

import { callRoute } from '../helpers/requests.ts'

describe('offline pack owner', () => {
  it("marks a pilot's dashboard (document and loader data) with the pilot's id", async () => {
    const { user, headers } = await signedInUser('pilot')
    const res = await callRoute(dashboard, '/dashboard?tab=projects', { headers })
    expect(res.status).toBe(200)
    expect(res.headers.get(OWNER_HEADER)).toBe(String(user.id))
  })

  it('does not mark anybody else', async () => {
    for (const role of ['client', 'admin'] as const) {
      const { headers } = await signedInUser(role)
      const res = await callRoute(dashboard, '/dashboard', { headers })
      expect(res.status).toBe(200)
      expect(res.headers.get(OWNER_HEADER)).toBeNull()
    }
  })
})

describe('sign-out clears the browser', () => {
  it('the page sign-out and the API sign-out both send Clear-Site-Data', async () => {
    const page = await signedInUser('pilot')
    const fromPage = await callRoute(pageLogout, '/logout', {
      method: 'POST',
      headers: { ...page.headers, Origin: 'http://localhost:3999' },
      form: {},
    })
    expect(fromPage.status).toBe(302)
    expect(fromPage.headers.get('Clear-Site-Data')).toBe(CLEAR_SITE_DATA_ON_SIGN_OUT)

    const api = await signedInUser('pilot')
    const fromApi = await callRoute(apiLogout, '/api/auth/logout', { method: 'POST', headers: api.headers })
    expect(fromApi.status).toBe(200)
    expect(fromApi.headers.get('Clear-Site-Data')).toBe(CLEAR_SITE_DATA_ON_SIGN_OUT)
  })
})
