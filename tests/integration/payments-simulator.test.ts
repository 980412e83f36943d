import {
  addressInList,
  buildAddressList,
  getPayfastConfig,
  isTrustedPayfastSource,
  normaliseIp,
} from '#app/domain/payments/payfast.server.ts'
import { itnParamString, signCheckoutFields, verifyItnSignature } from '#app/domain/payments/payfast.ts'
import {
  buildSimulatedItn,
  simulatedFeeCents,
  verifyCheckoutPost,
} from '#app/domain/payments/simulator.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import {
  action as processAction,
  loader as processLoader,
} from '#app/routes/payfast-simulator.eng.process.tsx'
import { action as validateAction } from '#app/routes/payfast-simulator.eng.query.validate.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { afterEach, describe, expect, test } from 'vitest'

function checkoutPairs(overrides: Record<string, string> = {}) {
  const config = getPayfastConfig()
  return signCheckoutFields(
    {
      merchant_id: config.merchantId,
      merchant_key: config.merchantKey,
      return_url: 'http://localhost:3999/payment-success?m_payment_id=KAS-1-ABC',
      cancel_url: 'http://localhost:3999/payment-cancelled?m_payment_id=KAS-1-ABC',
      notify_url: 'http://localhost:3999/api/payfast/notify',
      m_payment_id: 'KAS-1-ABC',
      amount: '2829.00',
      item_name: 'Aerial survey: Vineyard',
      ...overrides,
    },
    config.passphrase,
  )
}

afterEach(() => {
  delete process.env.PAYFAST_MODE
  process.env.PAYFAST_MODE = 'simulator'
  resetEnvCache()
})

describe('simulator checks the checkout form like PayFast', () => {
  test('a correctly signed form is accepted', () => {
    const verdict = verifyCheckoutPost(checkoutPairs())
    expect(verdict.ok).toBe(true)
    if (verdict.ok) expect(verdict.checkout.amountCents).toBe(282900)
  })

  test('a changed amount, a wrong merchant key or an unknown field is refused', () => {
    const tampered = checkoutPairs().map(([k, v]) => [k, k === 'amount' ? '1.00' : v] as [string, string])
    expect(verifyCheckoutPost(tampered)).toEqual({
      ok: false,
      errors: ['Generated signature does not match submitted signature.'],
    })
    const wrongKey = verifyCheckoutPost(checkoutPairs({ merchant_key: 'nope' }))
    expect(wrongKey.ok).toBe(false)
    const extra = verifyCheckoutPost([...checkoutPairs(), ['hack', '1']])
    expect(extra.ok).toBe(false)
    expect(verifyCheckoutPost([]).ok).toBe(false)
  })

  test('the payment page shows the amount; a bad signature gets an error page', async () => {
    const ok = await callRoute(processAction, '/payfast-simulator/eng/process', {
      method: 'POST',
      form: Object.fromEntries(checkoutPairs()),
    })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ payment: { amountCents: 282900, reference: 'KAS-1-ABC' } })
    const bad = await callRoute(processAction, '/payfast-simulator/eng/process', {
      method: 'POST',
      form: { ...Object.fromEntries(checkoutPairs()), signature: '0'.repeat(32) },
    })
    expect(bad.status).toBe(400)
  })

  test('cancel redirects to cancel_url without any notification', async () => {
    const response = await callRoute(processAction, '/payfast-simulator/eng/process', {
      method: 'POST',
      form: { ...Object.fromEntries(checkoutPairs()), _simulator_action: 'cancel' },
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe(
      'http://localhost:3999/payment-cancelled?m_payment_id=KAS-1-ABC',
    )
  })

  test('its ITN is in PayFast order, correctly signed, with fee and net', () => {
    const verdict = verifyCheckoutPost(checkoutPairs())
    if (!verdict.ok) throw new Error('expected ok')
    const pairs = buildSimulatedItn(verdict.checkout, 'COMPLETE', '1234567')
    expect(pairs.map(([k]) => k).slice(0, 8)).toEqual([
      'm_payment_id',
      'pf_payment_id',
      'payment_status',
      'item_name',
      'item_description',
      'amount_gross',
      'amount_fee',
      'amount_net',
    ])
    expect(pairs.at(-1)?.[0]).toBe('signature')
    expect(verifyItnSignature(pairs, getPayfastConfig().passphrase)).toBe(true)
    const get = (k: string) => pairs.find(([key]) => key === k)?.[1]
    expect(get('amount_gross')).toBe('2829.00')
    expect(get('amount_fee')).toBe(`-${(simulatedFeeCents(282900) / 100).toFixed(2)}`)
    expect(get('item_description')).toBe('')
  })

  test('validate answers INVALID for a notification it did not issue', async () => {
    const verdict = verifyCheckoutPost(checkoutPairs())
    if (!verdict.ok) throw new Error('expected ok')
    const unknown = itnParamString(buildSimulatedItn(verdict.checkout, 'COMPLETE', '555'))
    const response = await callRoute(validateAction, '/payfast-simulator/eng/query/validate', {
      method: 'POST',
      body: unknown,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(await response.text()).toBe('INVALID')
  })

  test('in sandbox and live mode the simulator does not exist', async () => {
    for (const mode of ['sandbox', 'live']) {
      process.env.PAYFAST_MODE = mode
      resetEnvCache()
      expect((await callRoute(processLoader, '/payfast-simulator/eng/process')).status).toBe(404)
      expect(
        (
          await callRoute(processAction, '/payfast-simulator/eng/process', {
            method: 'POST',
            form: Object.fromEntries(checkoutPairs()),
          })
        ).status,
      ).toBe(404)
      expect(
        (
          await callRoute(validateAction, '/payfast-simulator/eng/query/validate', {
            method: 'POST',
            body: 'x=1',
          })
        ).status,
      ).toBe(404)
      expect(getPayfastConfig().processUrl).toBe(
        mode === 'live'
          ? 'https://www.payfast.co.za/eng/process'
          : 'https://sandbox.payfast.co.za/eng/process',
      )
    }
  })
})

describe('trusted source addresses', () => {
  test('published ranges, configured extras and IPv4-mapped IPv6', () => {
    const list = buildAddressList([
      '197.97.145.144/28',
      '41.74.179.192/27',
      '144.126.193.139',
      '10.1.0.0/16',
      '::1',
      'junk',
      '1.2.3.4/99',
    ])
    expect(addressInList(list, '197.97.145.150')).toBe(true)
    expect(addressInList(list, '197.97.145.160')).toBe(false)
    expect(addressInList(list, '::ffff:41.74.179.223')).toBe(true)
    expect(addressInList(list, '41.74.179.224')).toBe(false)
    expect(addressInList(list, '144.126.193.139')).toBe(true)
    expect(addressInList(list, '10.1.200.3')).toBe(true)
    expect(addressInList(list, '::1')).toBe(true)
    expect(addressInList(list, 'unknown')).toBe(false)
    expect(addressInList(list, '')).toBe(false)
    expect(normaliseIp('::ffff:127.0.0.1')).toEqual({ address: '127.0.0.1', family: 'ipv4' })
  })

  test('loopback is trusted only when the simulator is the gateway', async () => {
    expect(await isTrustedPayfastSource('127.0.0.1')).toBe(true)
    expect(await isTrustedPayfastSource('203.0.113.7')).toBe(false)
    process.env.PAYFAST_MODE = 'live'
    process.env.PAYFAST_TRUSTED_IPS = '198.51.100.0/24'
    resetEnvCache()
    try {
      expect(await isTrustedPayfastSource('198.51.100.20')).toBe(true)
      expect(await isTrustedPayfastSource('102.216.36.5')).toBe(true)
      expect(await isTrustedPayfastSource('127.0.0.1')).toBe(false)
    } finally {
      delete process.env.PAYFAST_TRUSTED_IPS
    }
  })
})
