/**
 * Validation for the admin console forms and the admin /api calls. Shared by the browser (conform), the page actions and the /api routes.
 */
import { COUNTRIES, EmailSchema, NewPasswordSchema, PhoneSchema } from '#app/domain/auth/schemas.ts'
import { OptionalIsoDateSchema } from '#app/domain/operator/expiry.ts'
import { ADMIN_STATUSES } from '#app/domain/projects/status.ts'
import { FlagSchema } from '#app/lib/http/zod-input.ts'
import { ROLES } from '#db/enums.ts'
import { z } from 'zod'

const requiredText = (message: string, max: number) =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .min(1, message)
    .max(max, `Must be at most ${max} characters`)

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : null))

const OptionalPhoneSchema = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  PhoneSchema.optional(),
)

export const AdminCreateUserSchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  firstName: requiredText('First name is required', 100),
  lastName: requiredText('Last name is required', 100),
  companyName: optionalText(255),
  phone: OptionalPhoneSchema.transform((v) => v ?? null),
  industry: optionalText(100),
  country: z
    .enum(COUNTRIES, { errorMap: () => ({ message: 'Please choose a country from the list' }) })
    .optional()
    .transform((v) => v ?? null),
  role: z
    .enum(ROLES, { errorMap: () => ({ message: 'Role must be client, pilot or admin' }) })
    .default('client'),
})
export type AdminCreateUserInput = z.infer<typeof AdminCreateUserSchema>

export const AdminSetPasswordSchema = z
  .object({
    newPassword: NewPasswordSchema,
    confirmPassword: z.string().optional(),
  })
  .refine((d) => d.confirmPassword === undefined || d.confirmPassword === d.newPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  })

export const UserActiveSchema = z.object({ isActive: FlagSchema })

/** Drone types arrive as a list or as comma/newline separated text; stored as "A, B". */
const DroneTypesSchema = z.preprocess(
  (value) => {
    const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,\n]/) : []
    return list.map((v) => String(v).trim()).filter(Boolean)
  },
  z
    .array(z.string().max(100, 'Each drone type must be at most 100 characters'))
    .min(1, 'At least one drone type is required'),
)

const LicenceUrlSchema = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
  z
    .string()
    .max(2000, 'Licence URL is too long')
    .url('Licence URL must be a valid web address')
    .refine((v) => /^https?:\/\//i.test(v), 'Licence URL must start with http:// or https://')
    .optional(),
)

const pilotFields = {
  email: EmailSchema,
  firstName: requiredText('First name is required', 100),
  lastName: requiredText('Last name is required', 100),
  phone: PhoneSchema,
  serviceArea: requiredText('Service area is required', 200),
  droneTypes: DroneTypesSchema.transform((list) => list.join(', ')),
  pilotLicenseNumber: requiredText('Pilot license number is required', 50),
  pilotLicenseUrl: LicenceUrlSchema.transform((v) => v ?? null),
  // SACAA Part 101: RPL number and expiry, class medical expiry; ISO dates.
  rplNumber: z.preprocess(
    (v) => (v === '' ? null : v),
    z.string().trim().max(50, 'RPL number must be at most 50 characters').nullable().optional(),
  ),
  rplExpiresAt: OptionalIsoDateSchema('RPL expiry'),
  medicalExpiresAt: OptionalIsoDateSchema('Medical expiry'),
}

export const CreatePilotSchema = z.object({
  ...pilotFields,
  password: NewPasswordSchema,
  isActive: FlagSchema.default(true),
})
export type CreatePilotInput = z.infer<typeof CreatePilotSchema>

/** Edit: every field optional (PUT may send only `isActive`); a blank password keeps the old one. */
export const UpdatePilotSchema = z
  .object({
    ...pilotFields,
    password: z.preprocess((v) => (v === '' ? undefined : v), NewPasswordSchema.optional()),
    isActive: FlagSchema,
  })
  .partial()
export type UpdatePilotInput = z.infer<typeof UpdatePilotSchema>

export const HUB_REQUIRED_MESSAGE = 'Please fill in all required fields: name, address, and coordinates.'

const coordinate = (label: string, limit: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
    z
      .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number` })
      .finite(`${label} must be a number`)
      .refine((n) => n !== 0, `${label} is required (not 0)`)
      .refine((n) => Math.abs(n) <= limit, `${label} must be between -${limit} and ${limit}`),
  )

export const HubSchema = z.object({
  name: requiredText('Name is required', 200),
  address: requiredText('Address is required', 500),
  latitude: coordinate('Latitude', 90),
  longitude: coordinate('Longitude', 180),
  description: optionalText(1000),
  isActive: FlagSchema.default(true),
})
export type HubInput = z.infer<typeof HubSchema>
export const HubUpdateSchema = HubSchema.partial()

/** Any missing name, address or coordinate: the product's one message for the toast and the API error. */
export function hubErrorMessage(fieldErrors: Record<string, string[] | null>) {
  const required = ['name', 'address', 'latitude', 'longitude'].some((k) =>
    fieldErrors[k]?.some((m) => m.includes('required')),
  )
  return required ? HUB_REQUIRED_MESSAGE : (Object.values(fieldErrors)[0]?.[0] ?? HUB_REQUIRED_MESSAGE)
}

export type AdminStatus = (typeof ADMIN_STATUSES)[number]

/** 'in-progress' is accepted on input and stored as 'in_progress'. */
export const AdminStatusSchema = z.preprocess(
  (v) => (v === 'in-progress' ? 'in_progress' : v),
  z.enum(ADMIN_STATUSES, {
    errorMap: () => ({ message: 'Status must be one of pending, assigned, in_progress, completed' }),
  }),
)

/** The optional note sent to the client with a status change ('' when none). */
const StatusMessageSchema = z
  .string()
  .trim()
  .max(2000, 'The message must be at most 2000 characters')
  .optional()
  .transform((v) => v ?? '')

export const StatusUpdateSchema = z.object({
  status: AdminStatusSchema,
  statusMessage: StatusMessageSchema,
})

const IdSchema = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ required_error: message, invalid_type_error: message }).int(message).positive(message),
  )

export const AssignPilotSchema = z.object({ pilotId: IdSchema('Please choose a pilot') })

/** The project dialog's 'Save Changes' (status plus an optional pilot; '' = unassigned). */
export const ProjectSaveSchema = z.object({
  status: AdminStatusSchema,
  pilotId: z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    IdSchema('Please choose a pilot').nullable(),
  ),
  statusMessage: StatusMessageSchema,
})

/** The Reset Password dialog asks twice. */
export const AdminSetPasswordFormSchema = z
  .object({
    newPassword: NewPasswordSchema,
    confirmPassword: z.string({ required_error: 'Confirm password is required' }),
  })
  .refine((d) => d.confirmPassword === d.newPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  })
