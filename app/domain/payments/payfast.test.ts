import { describe, expect, test } from 'vitest'

import {
  amountToCents,
  centsToAmount,
  checkoutAmountToCents,
  checkoutSignature,
  checkoutSignatureString,
  itnParamString,
  itnSignature,
  payfastText,
  phpUrlEncode,
  signCheckoutFields,
  verifyItnSignature,
} from './payfast.ts'

const emptyCustomFields: Array<[string, string]> = [
  ...[1, 2, 3, 4, 5].map((i) => [`custom_str${i}`, ''] as [string, string]),
  ...[1, 2, 3, 4, 5].map((i) => [`custom_int${i}`, ''] as [string, string]),
]

describe('ITN signature', () => {
  test('vector A: PayFast sandbox ITN, no passphrase, empty fields kept', () => {
    const pairs: Array<[string, string]> = [
      ['m_payment_id', ''],
      ['pf_payment_id', '558900'],
      ['payment_status', 'COMPLETE'],
      ['item_name', 'Flux capacitor'],
      ['item_description', ''],
      ['amount_gross', '123.00'],
      ['amount_fee', '-2.80'],
      ['amount_net', '120.20'],
      ...emptyCustomFields,
      ['name_first', 'Test'],
      ['name_last', 'User 01'],
      ['email_address', 'sbtu01@payfast.co.za'],
      ['merchant_id', '10000100'],
    ]
    expect(itnSignature(pairs)).toBe('94b05677771813701468289ed3cabed1')
  })

  const vectorB: Array<[string, string]> = [
    ['m_payment_id', '000000020'],
    ['pf_payment_id', '1579137'],
    ['payment_status', 'COMPLETE'],
    ['item_name', 'Order #000000020'],
    ['item_description', ''],
    ['amount_gross', '15.00'],
    ['amount_fee', '-2.30'],
    ['amount_net', '12.70'],
    ...emptyCustomFields,
    ['name_first', 'Tom'],
    ['name_last', 'Tom'],
    ['email_address', 'lindley+user1@appinlet.com'],
    ['merchant_id', '10027938'],
  ]

  test('vector B: official SDK notification test', () => {
    expect(itnSignature(vectorB)).toBe('4078bca2c8987e0e0c4e7230f2f46323')
  })

  test('vector B: dropping the empty fields gives the wrong hash', () => {
    expect(itnSignature(vectorB.filter(([, v]) => v !== ''))).toMatch(/^2fae799c/)
  })

  test('parsing a raw posted body keeps order and decodes + and %XX; signature and later fields are ignored', () => {
    const raw = itnParamString(vectorB) + '&signature=4078bca2c8987e0e0c4e7230f2f46323'
    const pairs = [...new URLSearchParams(raw).entries()]
    expect(verifyItnSignature(pairs)).toBe(true)
    expect(itnParamString([...pairs, ['after', 'x']])).toBe(itnParamString(vectorB))
  })

  test('a tampered amount or a wrong passphrase fails verification', () => {
    const signed: Array<[string, string]> = [...vectorB, ['signature', itnSignature(vectorB, 'secret')]]
    expect(verifyItnSignature(signed, 'secret')).toBe(true)
    expect(verifyItnSignature(signed, 'other')).toBe(false)
    expect(verifyItnSignature(signed)).toBe(false)
    const tampered = signed.map(([k, v]) => [k, k === 'amount_gross' ? '1.00' : v] as [string, string])
    expect(verifyItnSignature(tampered, 'secret')).toBe(false)
    expect(verifyItnSignature(vectorB, 'secret')).toBe(false)
  })
})

describe('checkout signature', () => {
  const vectorC = {
    merchant_id: '10000100',
    merchant_key: '46f0cd694581a',
    notify_url: 'http://127.0.0.1:8000/payfast/notify/',
    name_first: 'Вася',
    name_last: 'Пупников',
    m_payment_id: '23',
    amount: '234',
    item_name: 'Payment (Планета суши). ID:272-15',
  }

  test('vector C: UTF-8 values, no passphrase', () => {
    expect(checkoutSignature(vectorC)).toBe('481366608545707be67c6514386b3fb1')
  })

  test('vector C with blank names: empty fields are dropped', () => {
    expect(checkoutSignature({ ...vectorC, name_first: '' })).toBe('6551205f0fee13cf09174b0b887ec5b3')
    expect(checkoutSignature({ ...vectorC, name_first: '', name_last: '  ' })).toBe(
      '8f6435965cd9b00a9a965d93fc6c4c48',
    )
  })

  // Deliberately not in PayFast's order, to prove the documented order is used.
  const sdkExample = {
    item_name: 'Order#123',
    amount: '5.00',
    m_payment_id: '1234',
    email_address: 'test@test.com',
    name_last: 'Last Name',
    name_first: 'First Name',
    notify_url: 'https://www.example.com/notify.php',
    cancel_url: 'https://www.example.com/cancel.php',
    return_url: 'https://www.example.com/return.php',
    merchant_key: '46f0cd694581a',
    merchant_id: '10000100',
  }

  test('PayFast’s worked example: documented order, upper-case hex, + for spaces, passphrase last', () => {
    expect(checkoutSignatureString(sdkExample, 'jt7NOE43FZPn')).toBe(
      'merchant_id=10000100&merchant_key=46f0cd694581a&return_url=https%3A%2F%2Fwww.example.com%2Freturn.php&cancel_url=https%3A%2F%2Fwww.example.com%2Fcancel.php&notify_url=https%3A%2F%2Fwww.example.com%2Fnotify.php&name_first=First+Name&name_last=Last+Name&email_address=test%40test.com&m_payment_id=1234&amount=5.00&item_name=Order%23123&passphrase=jt7NOE43FZPn',
    )
    expect(checkoutSignature(sdkExample, 'jt7NOE43FZPn')).toBe('1ad0bcdcdf2a8425de176000c75d8b9c')
  })

  test('signature without passphrase; an empty or blank passphrase is not appended', () => {
    expect(checkoutSignature(sdkExample)).toBe('f8b2074a3e9e1b002e4ce491cc3a62b3')
    expect(checkoutSignature(sdkExample, '')).toBe('f8b2074a3e9e1b002e4ce491cc3a62b3')
    expect(checkoutSignature(sdkExample, '  ')).toBe('f8b2074a3e9e1b002e4ce491cc3a62b3')
  })

  test('values are trimmed before hashing', () => {
    expect(checkoutSignature({ ...sdkExample, item_name: ' Order#123\n' }, 'jt7NOE43FZPn')).toBe(
      '1ad0bcdcdf2a8425de176000c75d8b9c',
    )
  })

  test('signature of an app-shaped example', () => {
    const fields = {
      merchant_id: '10000100',
      merchant_key: '46f0cd694581a',
      return_url: 'https://app.example.co.za/pay/return?m_payment_id=Q-2025-0001',
      cancel_url: 'https://app.example.co.za/pay/cancel?m_payment_id=Q-2025-0001',
      notify_url: 'https://app.example.co.za/api/payfast/itn',
      name_first: 'Thandi',
      name_last: 'Nkosi',
      email_address: 'thandi+test@example.co.za',
      m_payment_id: 'Q-2025-0001',
      amount: '1150.00',
      item_name: 'Drone survey Q-2025-0001',
      item_description: 'Orthomosaic 12.5 ha (incl. VAT R150.00)',
      custom_str1: 'quote:42',
    }
    expect(checkoutSignature(fields, 'jt7NOE43FZPn')).toBe('523ddf2ea3ddd4f8d298a5144e1cffde')
  })

  test('signCheckoutFields returns the posted fields in order with the signature last', () => {
    const signed = signCheckoutFields(sdkExample, 'jt7NOE43FZPn')
    expect(signed.map(([k]) => k)).toEqual([
      'merchant_id',
      'merchant_key',
      'return_url',
      'cancel_url',
      'notify_url',
      'name_first',
      'name_last',
      'email_address',
      'm_payment_id',
      'amount',
      'item_name',
      'signature',
    ])
    expect(signed.at(-1)).toEqual(['signature', '1ad0bcdcdf2a8425de176000c75d8b9c'])
  })

  test('unknown fields are refused rather than silently signed in the wrong place', () => {
    expect(() => checkoutSignature({ ...sdkExample, passphrase: 'x' } as never)).toThrow(/Unknown PayFast/)
  })
})

describe('PHP urlencode', () => {
  test('encodes what encodeURIComponent leaves alone, with upper-case hex', () => {
    expect(phpUrlEncode("Client's site (north block) ~12 ha!*")).toBe(
      'Client%27s+site+%28north+block%29+%7E12+ha%21%2A',
    )
    expect(phpUrlEncode('a-b_c.d')).toBe('a-b_c.d')
    expect(phpUrlEncode('http://x/y?z=1')).toBe('http%3A%2F%2Fx%2Fy%3Fz%3D1')
  })
})

describe('amounts without floating point', () => {
  test('cents to PayFast amount strings', () => {
    expect(centsToAmount(0)).toBe('0.00')
    expect(centsToAmount(5)).toBe('0.05')
    expect(centsToAmount(500)).toBe('5.00')
    expect(centsToAmount(115000)).toBe('1150.00')
    expect(centsToAmount(123456789)).toBe('1234567.89')
    expect(centsToAmount(-230)).toBe('-2.30')
    expect(centsToAmount(-5)).toBe('-0.05')
    // 0.1 + 0.2 style float traps never arise: 30 cents is '0.30'
    expect(centsToAmount(10 + 20)).toBe('0.30')
    expect(() => centsToAmount(1.5)).toThrow(RangeError)
    expect(() => centsToAmount(Number.NaN)).toThrow(RangeError)
  })

  test('ITN amounts (signed, exactly two decimals) to cents', () => {
    expect(amountToCents('123.00')).toBe(12300)
    expect(amountToCents('-2.80')).toBe(-280)
    expect(amountToCents('120.20')).toBe(12020)
    expect(amountToCents('0.07')).toBe(7)
    expect(amountToCents('-0.05')).toBe(-5)
    expect(amountToCents('1150.29')).toBe(115029)
    for (const bad of [
      '',
      '12',
      '12.3',
      '12.345',
      '1,150.00',
      '1e3',
      ' ',
      'abc',
      '+1.00',
      '1.00.00',
      '--1.00',
    ]) {
      expect(amountToCents(bad), bad).toBeNull()
    }
    expect(amountToCents(null)).toBeNull()
  })

  test('round trip for many values', () => {
    for (const cents of [1, 99, 100, 101, 1999, 172500, 987654321, -1, -99, -100]) {
      expect(amountToCents(centsToAmount(cents))).toBe(cents)
    }
  })

  test('checkout amounts accept what PayFast accepts', () => {
    expect(checkoutAmountToCents('234')).toBe(23400)
    expect(checkoutAmountToCents('5.5')).toBe(550)
    expect(checkoutAmountToCents('5.05')).toBe(505)
    expect(checkoutAmountToCents('-5.00')).toBeNull()
    expect(checkoutAmountToCents('5.001')).toBeNull()
  })
})

describe('free text for PayFast fields', () => {
  test('keeps the safe characters, replaces the rest, cuts to length', () => {
    expect(payfastText("Client's site (north) — Stellenbosch", 100)).toBe('Client s site north Stellenbosch')
    expect(payfastText('Café Ñandú', 100)).toBe('Cafe Nandu')
    expect(payfastText('a'.repeat(200), 100)).toHaveLength(100)
  })
})
