/**
 * Validation for the account forms, shared by the browser (conform's
 * client validation), the page actions and the /api routes. conform turns empty fields
 * into `undefined`, so "required" is a `required_error`.
 */
import { z } from 'zod'

export const COUNTRIES = ['South Africa', 'Botswana', 'Namibia', 'Zimbabwe', 'Other'] as const
const MIN_PASSWORD_LENGTH = 6

/** The fallbacks when the server has no message of its own (an unexpected failure). */
export const LOGIN_FAILED_MESSAGE = 'Login failed'
export const REGISTRATION_FAILED_MESSAGE = 'Registration failed'
export const RESET_FAILED_MESSAGE = 'Failed to reset password. Please try again.'

export const EmailSchema = z
  .string({ required_error: 'Please enter a valid email' })
  .trim()
  .toLowerCase()
  .max(255, 'Email must be at most 255 characters')
  .email('Please enter a valid email')

export const NewPasswordSchema = z
  .string({ required_error: 'Password must be at least 6 characters' })
  .min(MIN_PASSWORD_LENGTH, 'Password must be at least 6 characters')
  .max(200, 'Password must be at most 200 characters')

/**
 * South African numbers are stored without +27: accept "082 123 4567", "0821234567",
 * "+27 82 123 4567" or "821234567" and keep the 9 national digits.
 */
export const PhoneSchema = z
  .string({ required_error: 'Phone number is required' })
  .trim()
  .transform((value) =>
    value
      .replace(/[\s\-()]/g, '')
      .replace(/^\+?27/, '')
      .replace(/^0/, ''),
  )
  // One message at a time: "required" for an empty field, the format rule otherwise.
  .pipe(z.string().min(1, 'Phone number is required'))
  .pipe(z.string().regex(/^\d{9}$/, 'Please enter a valid phone number (9 digits after +27)'))

const name = (label: string) =>
  z
    .string({ required_error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`)

/** An unticked-by-default consent box: 'on' from a form, true from JSON; absent means no. */
const ConsentSchema = z
  .union([z.literal('on'), z.boolean()], { errorMap: () => ({ message: 'Consent must be yes or no' }) })
  .optional()
  .transform((v) => v === 'on' || v === true)

export const LoginSchema = z.object({
  email: EmailSchema,
  password: z.string({ required_error: 'Password is required' }).min(1, 'Password is required'),
  redirectTo: z.string().optional(),
})

export const RegisterSchema = z
  .object({
    firstName: name('First name'),
    lastName: name('Last name'),
    companyName: z.string().trim().max(255).optional(),
    email: EmailSchema,
    password: NewPasswordSchema,
    confirmPassword: z.string({ required_error: 'Confirm password is required' }),
    phone: PhoneSchema,
    industry: z.string().trim().max(100).optional(),
    country: z.enum(COUNTRIES, { errorMap: () => ({ message: 'Country is required' }) }),
    marketingOptIn: ConsentSchema,
  })
  .refine((data) => data.password === data.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  })
export type RegisterInput = z.infer<typeof RegisterSchema>

export const ForgotPasswordSchema = z.object({ email: EmailSchema })

export const ResetPasswordSchema = z
  .object({
    token: z.string({ required_error: 'Reset token is required' }).min(1, 'Reset token is required'),
    password: NewPasswordSchema,
    confirmPassword: z.string({ required_error: 'Confirm password is required' }),
  })
  .refine((data) => data.password === data.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  })

export const ProfileSchema = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  phone: PhoneSchema,
  companyName: z.string().trim().max(255).optional(),
})
