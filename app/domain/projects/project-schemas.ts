/**
 * The Create Project form and the draft API, one set of rules
 * for the browser (conform), the dashboard action and `/api/client/projects/draft`.
 */
import { isInSouthAfrica } from '#app/domain/geometry/south-africa.ts'
import { todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { z } from 'zod'

export const PROJECT_TYPES = [
  { value: 'agricultural-mapping', label: 'Agricultural Mapping' },
  { value: 'construction-survey', label: 'Construction Survey' },
  { value: 'mining-survey', label: 'Mining Survey' },
  { value: 'real-estate', label: 'Real Estate' },
  { value: 'infrastructure', label: 'Infrastructure' },
  { value: 'environmental', label: 'Environmental' },
  { value: 'other', label: 'Other' },
] as const

type ProjectType = (typeof PROJECT_TYPES)[number]['value']
const PROJECT_TYPE_VALUES = PROJECT_TYPES.map((t) => t.value) as [ProjectType, ...ProjectType[]]

export function projectTypeLabel(value: string | null | undefined) {
  return PROJECT_TYPES.find((t) => t.value === value)?.label ?? value ?? ''
}

/** The draft form. */
export const LOCATION_REQUIRED_MESSAGE =
  'Please fill in all required fields and select a location on the map.'
export const DEADLINE_IN_PAST_MESSAGE = 'The deadline cannot be in the past'

/** A project's site pin must be in South Africa (the same outline the survey areas use). */
function isSiteInSouthAfrica(lat: number, lng: number) {
  return isInSouthAfrica(lat, lng)
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/

function isRealDate(value: string) {
  if (!DATE_PATTERN.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined))

const DeadlineSchema = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .superRefine((value, ctx) => {
    if (!value) return
    if (!isRealDate(value)) {
      ctx.addIssue({ code: 'custom', message: 'Please enter a valid date' })
    } else if (value < todayInSouthAfrica()) {
      ctx.addIssue({ code: 'custom', message: DEADLINE_IN_PAST_MESSAGE })
    }
  })

// Missing name or type default to '' and fail a check instead of the type test: zod then
// still runs the location rule, so every message shows at once.
const baseFields = {
  name: z
    .string({ invalid_type_error: 'Project name is required' })
    .trim()
    .min(1, 'Project name is required')
    .max(255, 'Project name must be at most 255 characters')
    .default(''),
  projectType: z
    .string({ invalid_type_error: 'Please select a project type' })
    .default('')
    .refine((value): value is ProjectType => PROJECT_TYPE_VALUES.includes(value as ProjectType), {
      message: 'Please select a project type',
    }),
  deadline: DeadlineSchema,
  description: optionalText(5000, 'Description'),
  requirements: optionalText(5000, 'Special requirements'),
}

const coordinate = (label: string) =>
  z.number({ invalid_type_error: `${label} must be a number` }).finite(`${label} must be a number`)

/** The location rule of the draft form: an address and a point in South Africa. */
function checkLocation(
  value: { address?: string; latitude?: number; longitude?: number },
  ctx: z.RefinementCtx,
) {
  if (!value.address || value.latitude === undefined || value.longitude === undefined) {
    ctx.addIssue({ code: 'custom', path: ['address'], message: LOCATION_REQUIRED_MESSAGE })
    return
  }
  if (!isSiteInSouthAfrica(value.latitude, value.longitude)) {
    ctx.addIssue({ code: 'custom', path: ['latitude'], message: 'The location must be in South Africa' })
  }
}

/**
 * The Create Project form as posted (conform has already turned empty fields into
 * `undefined` and numbers into numbers). `placeChoice` is a result picked from the
 * no-JavaScript search list: "lat,lng|address"; it fills the location fields.
 */
export const CreateProjectFormSchema = z.preprocess(
  applyPlaceChoice,
  z
    .object({
      ...baseFields,
      address: optionalText(500, 'Address'),
      latitude: coordinate('Latitude').optional(),
      longitude: coordinate('Longitude').optional(),
    })
    .superRefine(checkLocation),
)

/** A picked result ("lat,lng|address") fills the location fields before validation. */
function applyPlaceChoice(input: unknown) {
  if (!input || typeof input !== 'object') return input
  const { placeChoice, ...rest } = input as Record<string, unknown>
  const picked = parsePlaceChoice(typeof placeChoice === 'string' ? placeChoice : undefined)
  return picked ? { ...rest, address: picked.address, latitude: picked.lat, longitude: picked.lng } : rest
}

/** The value of a search result's radio button: "lat,lng|address". */
export function formatPlaceChoice(place: { lat: number; lng: number; address: string }) {
  return `${place.lat},${place.lng}|${place.address}`
}

function parsePlaceChoice(value: string | undefined) {
  if (!value) return null
  const bar = value.indexOf('|')
  if (bar < 0) return null
  const [latText, lngText] = value.slice(0, bar).split(',')
  const lat = Number(latText)
  const lng = Number(lngText)
  const address = value.slice(bar + 1).trim()
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || !address) return null
  return { lat, lng, address: address.slice(0, 500) }
}

/**
 * `POST /api/client/projects/draft`: name,
 * description, location, coordinates {lat, lng}, address, projectType, deadline,
 * requirements. `latitude`/`longitude` are accepted too; clientId and status in the
 * body are ignored (the session decides the owner, a new project is always a draft).
 */
export const DraftApiSchema = z
  .object({
    ...baseFields,
    address: z.string().trim().max(500).optional(),
    location: z.string().trim().max(500).optional(),
    coordinates: z
      .object({ lat: coordinate('Latitude'), lng: coordinate('Longitude') })
      .partial()
      .nullish(),
    latitude: coordinate('Latitude').optional(),
    longitude: coordinate('Longitude').optional(),
  })
  .transform((v) => ({
    name: v.name,
    projectType: v.projectType,
    deadline: v.deadline,
    description: v.description,
    requirements: v.requirements,
    address: v.address || v.location || undefined,
    latitude: v.coordinates?.lat ?? v.latitude,
    longitude: v.coordinates?.lng ?? v.longitude,
  }))
  .superRefine(checkLocation)

export type DraftInput = {
  name: string
  projectType: ProjectType
  address?: string
  latitude?: number
  longitude?: number
  deadline?: string
  description?: string
  requirements?: string
}
