import { describe, expect, it } from 'vitest'
import { z } from 'zod'

import { numberInput } from './zod-input.ts'

describe('numberInput', () => {
  const schema = numberInput(z.number({ invalid_type_error: 'must be a number' }).int())

  it('accepts numbers and numeric text', () => {
    expect(schema.parse(4)).toBe(4)
    expect(schema.parse(' 12 ')).toBe(12)
  })

  it.each([[{ toString: 1 }], [{ valueOf: () => 3 }], [[1]], [true], ['0x10'], ['1e3'], ['abc'], [null]])(
    'refuses %j without throwing',
    (value) => {
      expect(schema.safeParse(value).success).toBe(false)
    },
  )
})
