import { action as unknownApiAction, loader as unknownApiLoader } from '#app/routes/api.$.ts'
import { action as myProjectsAction } from '#app/routes/api.client.my-projects.ts'
import { signedInUser } from '#tests/factories.ts'
import { callRoute, readJson } from '#tests/helpers/requests.ts'
import { describe, expect, it } from 'vitest'

describe('/api conventions', () => {
  it('a read-only call answers other methods with a JSON 405', async () => {
    const { headers } = await signedInUser('client')
    const res = await callRoute(myProjectsAction, '/api/client/my-projects', {
      method: 'PUT',
      headers,
      json: {},
    })
    expect(res.status).toBe(405)
    expect(res.headers.get('Allow')).toBe('GET')
    expect(await readJson(res)).toEqual({ error: 'Method not allowed' })
  })

  it('an unknown /api path answers a JSON 404', async () => {
    const get = await callRoute(unknownApiLoader, '/api/nothing-here')
    expect(get.status).toBe(404)
    expect(await readJson(get)).toEqual({ error: 'Not found' })
    const post = await callRoute(unknownApiAction, '/api/nothing-here', { json: {} })
    expect(post.status).toBe(404)
  })
})
