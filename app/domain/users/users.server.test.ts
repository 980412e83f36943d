import { findUserById, saveProfile } from '#app/domain/users/users.server.ts'
import { createTestUser } from '#tests/factories.ts'
import { describe, expect, test } from 'vitest'

const PROFILE = { firstName: 'Thandi', lastName: 'Mokoena', phone: '831112222', companyName: 'Karoo Vines' }

describe('saveProfile', () => {
  test("saves a client's details and the billing details of the tax invoice", async () => {
    const client = await createTestUser({ role: 'client' })
    const saved = saveProfile(client, { ...PROFILE, vatNumber: '4123456789', billingAddress: '1 Dock Road' })
    expect(saved).toMatchObject({ ...PROFILE, vatNumber: '4123456789', billingAddress: '1 Dock Road' })
    expect(findUserById(client.id)).toMatchObject({ vatNumber: '4123456789', billingAddress: '1 Dock Road' })
  })

  test('a client who clears the billing fields has none left, and an empty company is none', async () => {
    const client = await createTestUser({ role: 'client' })
    saveProfile(client, { ...PROFILE, vatNumber: '4123456789', billingAddress: '1 Dock Road' })
    const saved = saveProfile(client, { ...PROFILE, companyName: '' })
    expect(saved).toMatchObject({ companyName: null, vatNumber: null, billingAddress: null })
  })

  test("a pilot's save never writes billing details, even when they are sent", async () => {
    const pilot = await createTestUser({ role: 'pilot' })
    const saved = saveProfile(pilot, { ...PROFILE, vatNumber: '4123456789', billingAddress: '1 Dock Road' })
    expect(saved).toMatchObject({
      firstName: 'Thandi',
      phone: '831112222',
      vatNumber: null,
      billingAddress: null,
    })
  })

  test('changes only the given user', async () => {
    const client = await createTestUser({ role: 'client' })
    const other = await createTestUser({ role: 'client' })
    saveProfile(client, PROFILE)
    expect(findUserById(other.id)).toMatchObject({ firstName: 'Client', lastName: 'Tester' })
  })
})
