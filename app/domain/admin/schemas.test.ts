import { zodFieldErrors } from '#app/lib/http/api.server.ts'
import { describe, expect, test } from 'vitest'

import {
  AdminCreateUserSchema,
  AdminStatusSchema,
  CreatePilotSchema,
  HUB_REQUIRED_MESSAGE,
  hubErrorMessage,
  HubSchema,
  UpdatePilotSchema,
} from './schemas.ts'

const pilot = {
  email: 'P@Example.test',
  password: 'secret-123',
  firstName: 'Pia',
  lastName: 'Pilot',
  phone: '+27 82 123 4567',
  serviceArea: 'Western Cape',
  droneTypes: 'DJI Mavic 3E,  DJI M350 ,',
  pilotLicenseNumber: 'RPL-1',
  pilotLicenseUrl: 'https://example.com/l.pdf',
}

describe('admin schemas', () => {
  test("status accepts 'in-progress' as in_progress and refuses draft", () => {
    expect(AdminStatusSchema.parse('in-progress')).toBe('in_progress')
    expect(AdminStatusSchema.safeParse('draft').success).toBe(false)
  })

  test('pilot form: normalised e-mail, phone and drone types; active by default', () => {
    expect(CreatePilotSchema.parse(pilot)).toMatchObject({
      email: 'p@example.test',
      phone: '821234567',
      droneTypes: 'DJI Mavic 3E, DJI M350',
      isActive: true,
    })
  })

  test('pilot form: the fixed messages and http(s)-only licence URLs', () => {
    const result = CreatePilotSchema.safeParse({
      ...pilot,
      serviceArea: ' ',
      droneTypes: [],
      pilotLicenseNumber: '',
      pilotLicenseUrl: 'javascript:alert(1)',
    })
    expect(result.success).toBe(false)
    const errors = zodFieldErrors(result.error!)
    expect(errors.serviceArea).toEqual(['Service area is required'])
    expect(errors.pilotLicenseNumber).toEqual(['Pilot license number is required'])
    expect(errors.droneTypes).toEqual(['At least one drone type is required'])
    expect(errors.pilotLicenseUrl?.[0]).toMatch(/http/)
  })

  test('pilot update may send only the active flag; form strings become booleans', () => {
    expect(UpdatePilotSchema.parse({ isActive: 'false' })).toEqual({ isActive: false })
    expect(UpdatePilotSchema.parse({ isActive: true, password: '' })).toEqual({ isActive: true })
  })

  test('create user defaults to client and refuses unknown roles', () => {
    expect(
      AdminCreateUserSchema.parse({ email: 'a@b.co', password: 'secret', firstName: 'A', lastName: 'B' })
        .role,
    ).toBe('client')
    expect(
      AdminCreateUserSchema.safeParse({
        email: 'a@b.co',
        password: 'secret',
        firstName: 'A',
        lastName: 'B',
        role: 'root',
      }).success,
    ).toBe(false)
  })

  test('hub: missing name, address or a zero coordinate gives the fixed message; range errors their own', () => {
    const missing = HubSchema.safeParse({ name: 'X', address: '', latitude: '0', longitude: '18.4' })
    expect(hubErrorMessage(zodFieldErrors(missing.error!))).toBe(HUB_REQUIRED_MESSAGE)
    const range = HubSchema.safeParse({ name: 'X', address: 'Y', latitude: '-95', longitude: '18.4' })
    expect(hubErrorMessage(zodFieldErrors(range.error!))).toBe('Latitude must be between -90 and 90')
    expect(
      HubSchema.parse({ name: ' George ', address: 'George', latitude: '-33.96', longitude: '22.46' }),
    ).toMatchObject({ name: 'George', latitude: -33.96, isActive: true, description: null })
  })
})
