import { describe, expect, it } from 'vitest'

import { hashPassword, verifyPassword } from './password.server.ts'

describe('password hashing', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const hash = await hashPassword('kestrel-demo')
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/)
    expect(hash).not.toContain('kestrel-demo')
    await expect(verifyPassword('kestrel-demo', hash)).resolves.toBe(true)
    await expect(verifyPassword('kestrel-demO', hash)).resolves.toBe(false)
  })

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')])
    expect(a).not.toBe(b)
  })

  it('rejects malformed stored values instead of throwing', async () => {
    await expect(verifyPassword('x', 'bcrypt$whatever')).resolves.toBe(false)
    await expect(verifyPassword('x', '')).resolves.toBe(false)
  })
})
