/**
 * Processing presets and the check of an admin's ODM options against what the node's
 * `/options` lists. Browser-safe. NodeODM drops unknown option names silently, so they are
 * refused here instead.
 */
import { JOB_OUTPUTS, PROCESSING_PRESETS, type ProcessingPreset, type ProcessingStatus } from '#db/enums.ts'
import { z } from 'zod'

export { PROCESSING_PRESETS, type ProcessingPreset }

export const PRESET_LABELS: Record<ProcessingPreset, string> = {
  'fast-orthophoto': 'Fast orthophoto',
  standard: 'Standard',
  'full-3d': 'Full 3D',
}

export const PRESET_DESCRIPTIONS: Record<ProcessingPreset, string> = {
  'fast-orthophoto': 'An orthomosaic only, quickest',
  standard: 'Orthomosaic, surface (DSM) and terrain (DTM) models',
  'full-3d': 'Standard plus a textured 3D model, point cloud and 3D tiles',
}

/** The ODM options each preset sets. */
const PRESET_OPTIONS: Record<ProcessingPreset, Record<string, unknown>> = {
  'fast-orthophoto': { 'fast-orthophoto': true },
  standard: { dsm: true, dtm: true, cog: true },
  'full-3d': { dsm: true, dtm: true, cog: true, 'pc-copc': true, '3d-tiles': true },
}

export const PROCESSING_STATUS_LABELS: Record<ProcessingStatus, string> = {
  queued: 'Queued',
  uploading: 'Uploading photos',
  processing: 'Processing',
  downloading: 'Downloading results',
  importing: 'Importing results',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Cancelled',
}

export const ACTIVE_PROCESSING_STATUSES: readonly ProcessingStatus[] = [
  'queued',
  'uploading',
  'processing',
  'downloading',
  'importing',
]

export function isActiveProcessing(status: ProcessingStatus) {
  return ACTIVE_PROCESSING_STATUSES.includes(status)
}

export const PROCESSING_MESSAGES = {
  noPhotos: 'This project has no uploaded photos to process',
  activeJob: 'This project already has a processing job running',
  noNode: 'No processing node is online that can take this many photos',
  noEnabledNode: 'No processing node is enabled: add one under Processing nodes',
  tooManyPhotos: (count: number) => `No processing node takes ${count} photos at once`,
  unknownNode: 'Processing node not found',
  notActive: 'This processing job has already ended',
  notRestartable: 'Only a failed or cancelled job can be restarted',
  outputsSettled: 'This job’s outputs are already published or removed',
  notCompleted: 'Only a completed job’s outputs can be published',
  stillCopying: 'The viewing copies of this job’s outputs are still being made',
  unknownOption: (name: string) => `${name}: the processing node has no such option`,
  nodeBusy: 'This node has a processing job running; cancel it first',
  badUrl: 'Enter the node’s http:// or https:// address',
} as const

/** What was done when a job ended (the admin reads it on the job). */
export const FOLLOW_UP_NOTES = {
  delivering: 'Delivering to the client',
  failureMailed: 'The admins were e-mailed the failure',
  awaitingReview: 'Waiting for your review: complete the project to deliver the results',
  delivered: 'Delivered to the client',
  deliveredMailFailed: 'Delivered to the client; the e-mail to the client could not be sent',
  needsReview: (reason: string) => `Not delivered, needs your review: ${reason}`,
  failed: (reason: string) => `Following up failed, needs your review: ${reason}`,
} as const

/** A completed job that delivers itself and has not yet: its viewing copies are being made, or it is delivering. */
export function awaitingDelivery(job: {
  status: ProcessingStatus
  deliverWhenDone: boolean
  followedUpAt: unknown
  followUpNote: string | null
}) {
  if (job.status !== 'completed' || !job.deliverWhenDone) return false
  return !job.followedUpAt || job.followUpNote === FOLLOW_UP_NOTES.delivering
}

/** One entry of a node's `/options`. */
export interface OptionSpec {
  name: string
  type: string
  domain?: unknown
}

interface Range {
  min?: number
  max?: number
  minExclusive?: boolean
  maxExclusive?: boolean
}

/**
 * The range a numeric option's domain allows, read as NodeODM reads it: "positive integer"
 * (≥ 0), "negative float" (≤ 0), "percent", "float: 0 <= x <= 1", "float > 0.0".
 */
function rangeOf(domain: unknown): Range {
  const text = typeof domain === 'string' ? domain.trim().toLowerCase() : ''
  const sign = /^(positive|negative) (integer|float)$/.exec(text)
  if (sign) return sign[1] === 'positive' ? { min: 0 } : { max: 0 }
  if (text === 'percent') return { min: 0, max: 100 }
  const between = /^(?:float|integer): ([-+.\d]+) <= x <= ([-+.\d]+)$/.exec(text)
  if (between) return { min: Number(between[1]), max: Number(between[2]) }
  const bound = /^(?:float|integer) (>=|>|<=|<) ([-+.\d]+)$/.exec(text)
  if (bound) {
    const n = Number(bound[2])
    if (bound[1]!.startsWith('>')) return { min: n, minExclusive: bound[1] === '>' }
    return { max: n, maxExclusive: bound[1] === '<' }
  }
  return {}
}

function rangeText(range: Range) {
  if (range.min !== undefined && range.max !== undefined) return ` from ${range.min} to ${range.max}`
  if (range.min !== undefined) return range.minExclusive ? ` above ${range.min}` : ` of at least ${range.min}`
  if (range.max !== undefined) return range.maxExclusive ? ` below ${range.max}` : ` of at most ${range.max}`
  return ''
}

function inRange(value: number, range: Range) {
  if (range.min !== undefined && (range.minExclusive ? value <= range.min : value < range.min)) return false
  if (range.max !== undefined && (range.maxExclusive ? value >= range.max : value > range.max)) return false
  return true
}

function checkOne(spec: OptionSpec, value: unknown): string | null {
  const type = spec.type.toLowerCase()
  if (Array.isArray(spec.domain) || type === 'enum') {
    const allowed = Array.isArray(spec.domain) ? spec.domain.map(String) : []
    if (!allowed.includes(String(value))) return `must be one of ${allowed.join(', ')}`
    return null
  }
  if (type === 'bool' || type === 'boolean') {
    return typeof value === 'boolean' ? null : 'must be true or false'
  }
  if (type === 'int' || type === 'integer' || type === 'float' || type === 'number') {
    const range = rangeOf(spec.domain)
    const integer = type.startsWith('int')
    const ok =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (!integer || Number.isInteger(value)) &&
      inRange(value, range)
    return ok ? null : `must be ${integer ? 'a whole number' : 'a number'}${rangeText(range)}`
  }
  if (typeof value !== 'string' || value.length > 2000) return 'must be text (up to 2000 characters)'
  if (spec.domain === 'json') {
    try {
      JSON.parse(value)
    } catch {
      return 'must be JSON'
    }
  }
  return null
}

/**
 * The admin's options checked against the node's list: `{}` when all are good, else one
 * message per option name (unknown names included).
 */
export function checkOptions(options: Record<string, unknown>, specs: readonly OptionSpec[]) {
  const byName = new Map(specs.map((s) => [s.name, s]))
  const errors: Record<string, string> = {}
  for (const [name, value] of Object.entries(options)) {
    const spec = byName.get(name)
    if (!spec) errors[name] = PROCESSING_MESSAGES.unknownOption(name)
    else {
      const problem = checkOne(spec, value)
      if (problem) errors[name] = `${name}: ${problem}`
    }
  }
  return errors
}

/** The preset's options with the admin's on top, as NodeODM takes them. */
export function taskOptions(preset: ProcessingPreset, extra: Record<string, unknown>) {
  const merged = { ...PRESET_OPTIONS[preset], ...extra }
  return Object.entries(merged).map(([name, value]) => ({ name, value }))
}

/** Reads the no-JS form's options text: one `name=value` a line (true/false and numbers typed). */
export function parseOptionsText(text: string): Record<string, unknown> | string {
  const options: Record<string, unknown> = {}
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line) continue
    const at = line.indexOf('=')
    if (at <= 0) return `“${line.slice(0, 60)}” is not name=value`
    const name = line.slice(0, at).trim()
    const value = line.slice(at + 1).trim()
    options[name] =
      value === 'true'
        ? true
        : value === 'false'
          ? false
          : /^-?\d+(\.\d+)?$/.test(value)
            ? Number(value)
            : value
  }
  return options
}

const OptionsSchema = z
  .record(z.string().min(1).max(100), z.union([z.string().max(2000), z.number(), z.boolean()]))
  .refine((o) => Object.keys(o).length <= 100, 'At most 100 options')

const OutputsSchema = z.enum(JOB_OUTPUTS, { message: 'Choose replace or add' })

/** `POST /api/admin/projects/{id}/processing`. */
export const StartProcessingSchema = z
  .object({
    preset: z.enum(PROCESSING_PRESETS, { message: 'Choose a preset' }),
    options: OptionsSchema.optional(),
    nodeId: z.number().int().positive().optional(),
    /** Go on although the photo check found problems (recorded on the job). */
    acceptWarnings: z.boolean().optional(),
    /** Complete the project by itself once the results' viewing copies are ready (default: the setting). */
    deliverWhenDone: z.boolean().optional(),
    /** Replace the project's earlier processing outputs when this job's are published (default), or add to them. */
    outputs: OutputsSchema.optional(),
  })
  // Strict, as every processing body: a misspelt option falls back to a default the admin did not choose.
  .strict()

/** `POST /api/admin/processing/{jobId}/restart`. */
export const RestartProcessingSchema = z
  .object({
    options: OptionsSchema.optional(),
    outputs: OutputsSchema.optional(),
  })
  .strict()

/** `POST /api/admin/processing/{jobId}/outputs`: the choice for a job not yet published; `publishNow` past a failed viewing copy. */
export const JobOutputsSchema = z
  .object({
    outputs: OutputsSchema,
    publishNow: z.boolean().optional(),
  })
  .strict()

/** Where a completed job's outputs stand: published, still getting their viewing copies, or held by a failed one. */
export type OutputsState = 'published' | 'copying' | 'held' | null

export const OUTPUTS_LABELS: Record<(typeof JOB_OUTPUTS)[number], string> = {
  replace: 'Replace the current deliverables',
  add: 'Add to the current deliverables',
}
