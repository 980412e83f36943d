import { EMAIL_TAKEN_MESSAGE, insertUser } from '#app/domain/users/users.server.ts'
import { withApiErrors } from '#app/lib/http/api.server.ts'
import { createTestUser } from '#tests/factories.ts'
import { describe, expect, test } from 'vitest'

import { createPilot, updatePilot } from './users.server.ts'

describe('e-mail uniqueness under a race', () => {
  test('an address taken while updatePilot hashes the new password is a 409, not a 500', async () => {
    const admin = await createTestUser({ role: 'admin' })
    const pilot = await createTestUser({ role: 'pilot' })
    const update = withApiErrors(async () => {
      await updatePilot(admin.id, pilot.id, {
        email: 'race-pilot@example.test',
        password: 'Another-Secret-Pass-9',
      })
      return new Response(null, { status: 204 })
    })
    // Someone registers the address while the update awaits the password hash.
    insertUser({ email: 'race-pilot@example.test', passwordHash: 'x', firstName: 'Rae', lastName: 'Racer' })
    const response = await update
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({ error: 'An account with this email already exists' })
  })

  test('updatePilot compares addresses case-insensitively', async () => {
    const admin = await createTestUser({ role: 'admin' })
    const pilot = await createTestUser({ role: 'pilot' })
    const other = await createTestUser({ role: 'client' })
    await expect(updatePilot(admin.id, pilot.id, { email: other.email.toUpperCase() })).rejects.toMatchObject(
      { status: 409, message: EMAIL_TAKEN_MESSAGE },
    )
  })

  test('createPilot racing another sign-up for the same address is a 409 (e-mail taken)', async () => {
    const admin = await createTestUser({ role: 'admin' })
    const creating = createPilot(admin.id, {
      email: 'race-new@example.test',
      password: 'Another-Secret-Pass-9',
      firstName: 'Pia',
      lastName: 'Pilot',
      phone: '+27 82 000 0000',
      serviceArea: 'Cape Town',
      droneTypes: 'DJI Mavic 3',
      pilotLicenseNumber: 'RPL-1',
      pilotLicenseUrl: null,
      isActive: true,
    })
    insertUser({ email: 'race-new@example.test', passwordHash: 'x', firstName: 'Rae', lastName: 'Racer' })
    await expect(creating).rejects.toMatchObject({ status: 409, message: EMAIL_TAKEN_MESSAGE })
  })
})
