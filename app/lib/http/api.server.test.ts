/** `readQuery`: a query string validated like a JSON body, with the same 400 answer. */
import { describe, expect, test } from 'vitest'
import { z } from 'zod'

import { readJsonBody, readQuery } from './api.server.ts'
import { numberInput } from './zod-input.ts'

const Schema = z.object({
  lat: numberInput(z.number({ message: 'Latitude must be a number' }).min(-90).max(90)),
  label: z.string().max(5, 'Label is too long').optional(),
})

async function refusal(run: () => unknown) {
  try {
    await run()
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown
    return { status: thrown.status, body: (await thrown.json()) as Record<string, unknown> }
  }
  throw new Error('expected a refusal')
}

describe('readQuery', () => {
  test('reads each parameter once (its first value) and returns the parsed values', () => {
    const request = new Request('http://x.test/api?lat=-33.9&label=a&label=b&extra=1')
    expect(readQuery(request, Schema)).toEqual({ lat: -33.9, label: 'a' })
  })

  test('a missing or bad parameter: 400 with the field errors, the same answer readJsonBody gives', async () => {
    const fromQuery = await refusal(() => readQuery(new Request('http://x.test/api?label=toolong'), Schema))
    expect(fromQuery).toEqual({
      status: 400,
      body: {
        error: 'Latitude must be a number',
        fieldErrors: { lat: ['Latitude must be a number'], label: ['Label is too long'] },
      },
    })
    const body = new Request('http://x.test/api', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ label: 'toolong' }),
    })
    const fromBody = await refusal(() => readJsonBody(body, Schema))
    expect(fromBody).toEqual({ status: 400, body: { ...fromQuery.body, error: expect.any(String) } })
    const notANumber = await refusal(() => readQuery(new Request('http://x.test/api?lat=0x10'), Schema))
    expect(notANumber).toMatchObject({
      status: 400,
      body: { fieldErrors: { lat: ['Latitude must be a number'] } },
    })
  })
})
