import { getToast, jsonWithErrorToast } from '#app/lib/http/toast.server.ts'
import { describe, expect, it } from 'vitest'

describe('jsonWithErrorToast', () => {
  it('answers with the data, the status and an error toast the next request reads', async () => {
    const response = await jsonWithErrorToast({ result: { status: 'error' } }, 422, {
      description: 'Check the form',
    })
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({ result: { status: 'error' } })
    const cookie = response.headers.get('Set-Cookie')!.split(';')[0]!
    const { toast } = await getToast(new Request('http://localhost/', { headers: { Cookie: cookie } }))
    expect(toast).toMatchObject({ type: 'error', title: 'Error', description: 'Check the form' })
  })

  it('keeps a given title', async () => {
    const response = await jsonWithErrorToast({}, 400, { title: 'Link not created' })
    const cookie = response.headers.get('Set-Cookie')!.split(';')[0]!
    const { toast } = await getToast(new Request('http://localhost/', { headers: { Cookie: cookie } }))
    expect(toast).toMatchObject({ type: 'error', title: 'Link not created' })
  })
})
