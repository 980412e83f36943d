/** `openShareViewer`: what /s/{token} shows for an open, unknown, expired or guessing request. */
import { getDb } from '#app/lib/db/db.server.ts'
import { shareLinks } from '#db/schema.ts'
import { deliveredProject } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { openShareViewer } from './share-access.server.ts'
import { createShareLink } from './share-links.server.ts'

async function sharedLink() {
  const { client, project } = await deliveredProject()
  const created = createShareLink({ id: client.user.id, role: 'client' }, project.id, { allowDownload: true })
  return { link: created, token: created.url.split('/s/')[1]! }
}

const openCount = (id: number) =>
  getDb().select().from(shareLinks).where(eq(shareLinks.id, id)).get()!.openCount

describe('openShareViewer', () => {
  test('an open link: 200 with the viewer data and the tile URL, private and unindexed; counted only when asked', async () => {
    const { link, token } = await sharedLink()
    const page = await openShareViewer(token, '203.0.113.1', { countOpen: true })
    expect(page.status).toBe(200)
    expect(page.body).toMatchObject({ state: 'open', tileUrl: expect.any(String) })
    expect(Object.fromEntries(page.headers)).toMatchObject({
      'cache-control': 'private, no-store',
      'x-robots-tag': 'noindex, nofollow',
      'referrer-policy': 'no-referrer',
    })
    expect(openCount(link.id)).toBe(1)
    await openShareViewer(token, '203.0.113.1', { countOpen: false })
    expect(openCount(link.id)).toBe(1)
  })

  test('an unknown token is the 404 "unknown" state; an expired link the 410 "gone" state with its date', async () => {
    const { link, token } = await sharedLink()
    const unknown = await openShareViewer('A'.repeat(43), '203.0.113.2', { countOpen: true })
    expect(unknown).toMatchObject({ status: 404, body: { state: 'unknown' } })
    expect(unknown.headers.get('X-Robots-Tag')).toBe('noindex, nofollow')
    const now = new Date(Date.UTC(2026, 0, 20))
    getDb()
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.UTC(2026, 0, 15)) })
      .where(eq(shareLinks.id, link.id))
      .run()
    const gone = await openShareViewer(token, '203.0.113.2', { countOpen: true, now })
    expect(gone).toMatchObject({
      status: 410,
      body: { state: 'gone', message: 'This link expired on 15 January 2026. Ask its owner for a new one.' },
    })
    expect(openCount(link.id)).toBe(0)
  })

  test('an address that keeps guessing gets the 429 "limited" state with Retry-After', async () => {
    const ip = '203.0.113.3'
    let page = await openShareViewer('C'.repeat(43), ip, { countOpen: true })
    for (let i = 0; page.status === 404 && i < 100; i++) {
      page = await openShareViewer(`${'C'.repeat(40)}${String(i).padStart(3, '0')}`, ip, { countOpen: true })
    }
    expect(page).toMatchObject({ status: 429, body: { state: 'limited' } })
    expect(Number(page.headers.get('Retry-After'))).toBeGreaterThan(0)
  })
})
