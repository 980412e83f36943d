import { describe, expect, it } from 'vitest'

import { domainErrorResponse, withApiErrors } from './api.server.ts'
import { DomainError } from './domain-error.ts'

describe('DomainError → /api answer', () => {
  it('keeps the status, the message, the field errors and the extra members', async () => {
    const res = domainErrorResponse(
      new DomainError(409, 'Quote changed', {
        fieldErrors: { quoteAmount: ['Quote changed'] },
        extra: { quote: 1 },
      }),
    )
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({
      error: 'Quote changed',
      quote: 1,
      fieldErrors: { quoteAmount: ['Quote changed'] },
    })
  })

  it('passes a thrown Response through and rethrows anything else', async () => {
    const thrown = new Response(null, { status: 418 })
    expect(await withApiErrors(() => Promise.reject(thrown))).toBe(thrown)
    await expect(withApiErrors(() => Promise.reject(new TypeError('bug')))).rejects.toThrow('bug')
  })
})
