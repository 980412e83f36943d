import { parseWithZod } from '@conform-to/zod'
import { ContactSchema } from '#app/domain/contact/schemas.ts'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'

import {
  ForgotPasswordSchema,
  LoginSchema,
  PhoneSchema,
  RegisterSchema,
  ResetPasswordSchema,
} from './schemas.ts'

/** Validates like the forms do: FormData through conform (empty fields become undefined). */
function errorsOf(schema: z.ZodTypeAny, fields: Record<string, string>) {
  const formData = new FormData()
  for (const [k, v] of Object.entries(fields)) formData.set(k, v)
  const submission = parseWithZod(formData, { schema })
  return submission.status === 'success' ? {} : (submission.reply().error ?? {})
}

const validRegistration = {
  firstName: 'Thandi',
  lastName: 'Nkosi',
  email: 'thandi@example.co.za',
  password: 'secret1',
  confirmPassword: 'secret1',
  phone: '082 123 4567',
  country: 'South Africa',
}

describe('login', () => {
  it('needs a valid email and a password', () => {
    expect(errorsOf(LoginSchema, { email: 'nope', password: '' })).toEqual({
      email: ['Please enter a valid email'],
      password: ['Password is required'],
    })
    expect(errorsOf(LoginSchema, { email: '', password: 'x' })).toEqual({
      email: ['Please enter a valid email'],
    })
  })

  it('normalises the email', () => {
    expect(LoginSchema.parse({ email: '  Client@Example.COM ', password: 'x' }).email).toBe(
      'client@example.com',
    )
  })
})

describe('registration', () => {
  it('accepts a complete form', () => {
    expect(errorsOf(RegisterSchema, validRegistration)).toEqual({})
  })

  it('requires confirm password, phone and country', () => {
    const errors = errorsOf(RegisterSchema, {
      ...validRegistration,
      confirmPassword: '',
      phone: '',
      country: '',
    })
    expect(errors.confirmPassword).toContain('Confirm password is required')
    expect(errors.phone).toEqual(['Phone number is required'])
    expect(errors.country).toEqual(['Country is required'])
  })

  it("reports mismatched passwords on confirmPassword: Passwords don't match", () => {
    expect(errorsOf(RegisterSchema, { ...validRegistration, confirmPassword: 'secret2' })).toEqual({
      confirmPassword: ["Passwords don't match"],
    })
  })

  it('rejects a country outside the list', () => {
    expect(errorsOf(RegisterSchema, { ...validRegistration, country: 'Mars' }).country).toEqual([
      'Country is required',
    ])
  })

  it('keeps the 9 national digits of a phone number (+27 is shown, not stored)', () => {
    expect(PhoneSchema.parse('082 123 4567')).toBe('821234567')
    expect(PhoneSchema.parse('+27 82 123 4567')).toBe('821234567')
    expect(PhoneSchema.safeParse('12345').success).toBe(false)
  })
})

describe('forgot password', () => {
  it('needs a valid email', () => {
    expect(errorsOf(ForgotPasswordSchema, { email: 'not-an-email' })).toEqual({
      email: ['Please enter a valid email'],
    })
    expect(errorsOf(ForgotPasswordSchema, { email: 'a@b.co' })).toEqual({})
  })
})

describe('reset password', () => {
  it('needs a token, a 6-character password and a matching confirmation', () => {
    expect(errorsOf(ResetPasswordSchema, { token: '', password: '12345', confirmPassword: '' })).toEqual({
      token: ['Reset token is required'],
      password: ['Password must be at least 6 characters'],
      confirmPassword: ['Confirm password is required'],
    })
    expect(
      errorsOf(ResetPasswordSchema, { token: 't', password: '123456', confirmPassword: '1234567' }),
    ).toEqual({
      confirmPassword: ["Passwords don't match"],
    })
    expect(
      errorsOf(ResetPasswordSchema, { token: 't', password: '123456', confirmPassword: '123456' }),
    ).toEqual({})
  })
})

describe('contact form', () => {
  it('requires name, email and message', () => {
    expect(errorsOf(ContactSchema, { name: '', email: '', message: '  ' })).toEqual({
      name: ['Name is required'],
      email: ['Please enter a valid email'],
      message: ['Message is required'],
    })
    expect(errorsOf(ContactSchema, { name: 'Sipho', email: 'sipho@example.com', message: 'Hi' })).toEqual({})
  })
})
