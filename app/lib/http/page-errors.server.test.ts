import { describe, expect, test } from 'vitest'

import { DomainError } from './domain-error.ts'
import { asPage, idOrNull, pageId } from './page-errors.server.ts'

async function thrown(run: () => unknown) {
  try {
    await run()
  } catch (error) {
    return error
  }
  return null
}

describe('page ids', () => {
  test('plain positive digits only', () => {
    expect(idOrNull('42')).toBe(42)
    for (const bad of ['0', '-1', '1.5', ' 7', '1e3', '99999999999', '', null, undefined])
      expect(idOrNull(bad)).toBeNull()
  })

  test('a bad route id is the 404 page', async () => {
    expect(pageId('7')).toBe(7)
    const error = await thrown(() => pageId('x7'))
    expect(error).toBeInstanceOf(Response)
    expect((error as Response).status).toBe(404)
  })
})

describe('asPage', () => {
  test('a refusal becomes its status page with its message; a bug stays a bug', async () => {
    const refused = (await thrown(() =>
      asPage(() => Promise.reject(new DomainError(404, 'Site not found'))),
    )) as Response
    expect(refused.status).toBe(404)
    expect(await refused.text()).toBe('Site not found')
    const bug = await thrown(() =>
      asPage(() => {
        throw new TypeError('boom')
      }),
    )
    expect(bug).toBeInstanceOf(TypeError)
    expect(await asPage(() => 5)).toBe(5)
  })
})
