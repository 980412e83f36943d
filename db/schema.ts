/**
 * The whole data model (the product's entities plus what it needs to run).
 * Money is integer cents; timestamps are stored as epoch milliseconds.
 */
import { sql } from 'drizzle-orm'
import {
  index,
  integer,
  real,
  sqliteTable,
  text,
  uniqueIndex,
  type AnySQLiteColumn,
} from 'drizzle-orm/sqlite-core'

import type {
  AnnotationBase,
  AnnotationKind,
  DeliverableKind,
  DesignSurfaceKind,
  FileCategory,
  JobOutputs,
  OperatorDocumentKind,
  PilotDocumentKind,
  ProcessingPreset,
  ProcessingStatus,
  ProjectStatus,
  RepeatInterval,
  Role,
  StockpileKind,
  ViewStatus,
} from './enums.ts'

const id = () => integer('id').primaryKey({ autoIncrement: true })
const createdAt = () =>
  integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .$defaultFn(() => new Date())
const updatedAt = () =>
  integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date())
const bool = (name: string) => integer(name, { mode: 'boolean' })

export {
  ROLES,
  type Role,
  PROJECT_STATUSES,
  type ProjectStatus,
  FILE_CATEGORIES,
  type FileCategory,
  DELIVERABLE_KINDS,
  type DeliverableKind,
  VIEW_STATUSES,
  type ViewStatus,
  REPEAT_INTERVALS,
  type RepeatInterval,
  OPERATOR_DOCUMENT_KINDS,
  type OperatorDocumentKind,
  PILOT_DOCUMENT_KINDS,
  type PilotDocumentKind,
  PROCESSING_STATUSES,
  type ProcessingStatus,
  PROCESSING_PRESETS,
  type ProcessingPreset,
  JOB_OUTPUTS,
  type JobOutputs,
  ANNOTATION_KINDS,
  type AnnotationKind,
  STOCKPILE_KINDS,
  type StockpileKind,
  ANNOTATION_BASES,
  type AnnotationBase,
  DESIGN_SURFACE_KINDS,
  type DesignSurfaceKind,
} from './enums.ts'

/** What `gdalinfo -json` says of a GeoTIFF deliverable (stored as JSON on project_files). */
export type RasterInfo = {
  epsg: number | null
  widthPx: number
  heightPx: number
  bandCount: number
  dataType: string
  nodata: number | null
  /** Ground sample distance: the pixel size in centimetres (metres × 100 for projected CRSs). */
  gsdCm: number | null
  /** [west, south, east, north] in WGS84 degrees. */
  boundsWgs84: [number, number, number, number]
  /** The raster's outline in WGS84 ([lng, lat] ring, closed). */
  footprintWgs84: [number, number][]
  footprintHa: number
  /** Share (0–100) of the project's survey areas the raster covers. */
  overlapPercent: number | null
}

/** A deliverable's accuracy statement (stored as JSON on project_files): the admin's, or read from ODM's report. */
export type DeliverableAccuracy = {
  horizontalRmseM: number
  verticalRmseM: number
  gcpCount: number
  checkpointCount: number
  /** The survey's ground sample distance where the source states it (ODM's average GSD), else null. */
  gsdCm: number | null
  source: 'admin' | 'odm'
}

/** One finding of the photo check before processing (`photo` null: about the whole set). */
export type PhotoProblem = { photo: string | null; problem: string }

/** A product of a node's archive the import left out: its path in all.zip and why. */
export type ProcessingSkip = { path: string; reason: string }

/** One surveyed checkpoint against an elevation model: dz = model − surveyed (null off the model). */
export type CheckpointResult = {
  id: string
  easting: number
  northing: number
  elevationM: number
  modelElevationM: number | null
  dzM: number | null
  /** Where the target shows on the orthomosaic, when given: the horizontal error (m). */
  horizontalErrorM: number | null
  /** That position (easting, northing in the checkpoint CRS), kept so a new click changes one target only. */
  map?: [number, number] | null
}

/** A checkpoint comparison (ASPRS Positional Accuracy Standards, edition 2, 2024). */
export type CheckpointReport = {
  crs: string
  /** That CRS as GDAL states it in PROJ.4 text: the Map view converts targets clicked on the map with it. */
  proj4?: string
  count: number
  /** Checkpoints on the model (with a height there): the figures are over these. */
  usedCount: number
  verticalRmseM: number | null
  meanErrorM: number | null
  /** The ASPRS vertical accuracy class met ("10-cm"), null when coarser than every class. */
  asprsVerticalClass: string | null
  horizontalRmseM: number | null
  horizontalCount: number
  /** A plain warning (fewer than the 30 checkpoints ASPRS asks for), or null. */
  warning: string | null
  points: CheckpointResult[]
  checkedAt: string
}

/** What a deliverable made by a processing job notes of it (stored as JSON on project_files). */
export type ProcessingNote = {
  jobId: number
  nodeLabel: string | null
  preset: ProcessingPreset
  /** The ODM options the node was given (the preset's and the admin's). */
  options: Record<string, unknown>
  engineVersion: string | null
  /** The node's own processing time, milliseconds. */
  processingMs: number | null
  imagesCount: number
}

export const users = sqliteTable(
  'users',
  {
    id: id(),
    email: text('email', { length: 255 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name', { length: 100 }).notNull(),
    lastName: text('last_name', { length: 100 }).notNull(),
    companyName: text('company_name', { length: 255 }),
    /** Stored without the +27 prefix. */
    phone: text('phone', { length: 20 }),
    industry: text('industry', { length: 100 }),
    country: text('country', { length: 100 }),
    role: text('role', { length: 20 }).$type<Role>().notNull().default('client'),
    isActive: bool('is_active').notNull().default(true),
    serviceArea: text('service_area', { length: 200 }),
    droneTypes: text('drone_types'),
    pilotLicenseNumber: text('pilot_license_number', { length: 50 }),
    pilotLicenseUrl: text('pilot_license_url'),
    /** SACAA Remote Pilot Licence and class 3 medical (pilots): ISO dates YYYY-MM-DD. */
    rplNumber: text('rpl_number', { length: 50 }),
    rplExpiresAt: text('rpl_expires_at', { length: 10 }),
    medicalExpiresAt: text('medical_expires_at', { length: 10 }),
    /** Billing details for the tax invoice (clients). */
    vatNumber: text('vat_number', { length: 20 }),
    billingAddress: text('billing_address', { length: 500 }),
    /** Separate, never pre-ticked consent to marketing e-mail, with when it was given. */
    marketingOptIn: bool('marketing_opt_in').notNull().default(false),
    marketingOptInAt: integer('marketing_opt_in_at', { mode: 'timestamp_ms' }),
    /** Set when the user deleted their account: the row stays, anonymised, for invoices. */
    anonymisedAt: integer('anonymised_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), index('users_role_idx').on(t.role)],
)

/** Server-side sessions. The id is the SHA-256 of the token the browser holds. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_unique').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId),
  ],
)

export const contactMessages = sqliteTable('contact_messages', {
  id: id(),
  name: text('name', { length: 200 }).notNull(),
  email: text('email', { length: 255 }).notNull(),
  message: text('message').notNull(),
  ipAddress: text('ip_address'),
  createdAt: createdAt(),
})

export const hubs = sqliteTable(
  'hubs',
  {
    id: id(),
    name: text('name', { length: 200 }).notNull(),
    address: text('address', { length: 500 }).notNull(),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    description: text('description'),
    isActive: bool('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('hubs_active_idx').on(t.isActive)],
)

/** Drones and their mapping cameras for survey planning. */
export const droneProfiles = sqliteTable(
  'drone_profiles',
  {
    id: id(),
    name: text('name', { length: 120 }).notNull().unique(),
    sensorWidthMm: real('sensor_width_mm').notNull(),
    sensorHeightMm: real('sensor_height_mm').notNull(),
    focalLengthMm: real('focal_length_mm').notNull(),
    imageWidthPx: integer('image_width_px').notNull(),
    imageHeightPx: integer('image_height_px').notNull(),
    minTriggerIntervalS: real('min_trigger_interval_s').notNull(),
    speedMs: real('speed_ms').notNull(),
    flightTimePerBatteryMin: real('flight_time_per_battery_min').notNull(),
    /** 0–1: the share of a battery planned for survey legs (the rest is reserve). */
    usableBatteryShare: real('usable_battery_share').notNull(),
    isActive: bool('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('drone_profiles_active_idx').on(t.isActive)],
)

export const systemSettings = sqliteTable('system_settings', {
  id: id(),
  settingKey: text('setting_key', { length: 100 }).notNull().unique(),
  settingValue: text('setting_value').notNull(),
  description: text('description'),
  updatedBy: integer('updated_by').references(() => users.id, {
    onDelete: 'set null',
  }),
  updatedAt: updatedAt(),
})

export const airspaceZones = sqliteTable(
  'airspace_zones',
  {
    id: id(),
    zoneName: text('zone_name', { length: 255 }).notNull(),
    /** Display type: Controlled, OR Tambo Buffer, Danger, CTR, ATZ, TMA, … */
    zoneType: text('zone_type', { length: 50 }).notNull(),
    color: text('color', { length: 20 }).notNull(),
    /** Cents. */
    aviationFee: integer('aviation_fee').notNull().default(0),
    /** A GeoJSON Polygon or MultiPolygon geometry, as JSON text. */
    polygon: text('polygon').notNull(),
    /** Where it came from: 'rsa' (shipped national dataset) or 'kml' (admin upload). */
    source: text('source', { length: 20 }).notNull().default('kml'),
    designator: text('designator', { length: 50 }),
    lowerFt: integer('lower_ft'),
    upperFt: integer('upper_ft'),
    lowerIsSurface: bool('lower_is_surface').notNull().default(true),
    /** Prohibited or restricted: the quote carries an approval warning. */
    requiresApproval: bool('requires_approval').notNull().default(false),
    minLng: real('min_lng').notNull(),
    minLat: real('min_lat').notNull(),
    maxLng: real('max_lng').notNull(),
    maxLat: real('max_lat').notNull(),
    uploadedAt: integer('uploaded_at', { mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
    isActive: bool('is_active').notNull().default(true),
  },
  (t) => [index('airspace_zones_active_idx').on(t.isActive)],
)

/**
 * A piece of ground a client has surveyed more than once: the projects flown over the same
 * areas, named by the client, with an optional repeat schedule.
 */
export const sites = sqliteTable(
  'sites',
  {
    id: id(),
    clientId: integer('client_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name', { length: 255 }).notNull(),
    /** null: no schedule. */
    repeatEvery: text('repeat_every', { length: 10 }).$type<RepeatInterval>(),
    /** The preferred date (YYYY-MM-DD, Johannesburg) of the next scheduled survey. */
    nextDueOn: text('next_due_on', { length: 10 }),
    /** The schedule's day of the month (1–31; a shorter month takes its last day). */
    repeatDay: integer('repeat_day'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sites_client_idx').on(t.clientId)],
)

export const projects = sqliteTable(
  'projects',
  {
    id: id(),
    clientId: integer('client_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pilotId: integer('pilot_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    name: text('name', { length: 255 }).notNull(),
    description: text('description'),
    projectType: text('project_type', { length: 50 }).notNull(),
    /** The human address of the site. */
    location: text('location', { length: 500 }),
    latitude: real('latitude'),
    longitude: real('longitude'),
    deadline: text('deadline', { length: 10 }),
    requirements: text('requirements'),
    /** The flight plan, JSON text. */
    flightPlan: text('polygon_geojson'),
    /** The survey mission (settings and figures), JSON text. */
    surveyPlan: text('survey_plan'),
    areaSqm: real('area_sqm'),
    distanceFromHub: real('distance_from_hub'),
    nearestHub: text('nearest_hub', { length: 200 }),
    nearestHubId: integer('nearest_hub_id').references(() => hubs.id, {
      onDelete: 'set null',
    }),
    basePrice: integer('base_price'),
    adjustedPrice: integer('adjusted_price'),
    airspaceZone: text('airspace_zone', { length: 255 }),
    airspaceZoneColor: text('airspace_zone_color', { length: 20 }),
    aviationFee: integer('aviation_fee').notNull().default(0),
    travelFee: integer('travel_fee'),
    subtotal: integer('subtotal'),
    vatAmount: integer('vat_amount'),
    quoteAmount: integer('quote_amount'),
    quotedAt: integer('quoted_at', { mode: 'timestamp_ms' }),
    baseCost: integer('base_cost').notNull().default(117204),
    profitMargin: integer('profit_margin'),
    platformShare: integer('platform_share'),
    operatorShare: integer('operator_share'),
    operatorPayout: integer('operator_payout'),
    isApproved: bool('is_approved').notNull().default(false),
    isPaid: bool('is_paid').notNull().default(false),
    paidAt: integer('paid_at', { mode: 'timestamp_ms' }),
    status: text('status', { length: 20 }).$type<ProjectStatus>().notNull().default('draft'),
    statusMessage: text('status_message'),
    landOwnerFormUploaded: bool('land_owner_form_uploaded').notNull().default(false),
    flightHours: real('flight_hours').notNull().default(0),
    scheduledDate: text('scheduled_date', { length: 10 }),
    estimatedDuration: integer('estimated_duration'),
    termsVersion: text('terms_version', { length: 20 }),
    termsAcceptedAt: integer('terms_accepted_at', { mode: 'timestamp_ms' }),
    termsAcceptedIp: text('terms_accepted_ip', { length: 64 }),
    cancelledAt: integer('cancelled_at', { mode: 'timestamp_ms' }),
    completedAt: integer('completed_at', { mode: 'timestamp_ms' }),
    /** When the pilot last marked the photo upload finished. */
    photosUploadedAt: integer('photos_uploaded_at', { mode: 'timestamp_ms' }),
    /** When the client was e-mailed that the deliverables are ready ('Complete Project'). */
    clientNotifiedAt: integer('client_notified_at', { mode: 'timestamp_ms' }),
    /** The admin kept the deliverables and flight media past the month after completion, until this time. */
    filesKeptUntil: integer('files_kept_until', { mode: 'timestamp_ms' }),
    filesKeptReason: text('files_kept_reason', { length: 500 }),
    /** The site this project surveys (set when it is flown again or grouped by the client). */
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'set null' }),
    /** The project this one repeats ("Fly this again" or a schedule). */
    repeatOfProjectId: integer('repeat_of_project_id').references((): AnySQLiteColumn => projects.id, {
      onDelete: 'set null',
    }),
    /** The repeat discount taken off the quote: percent at quote time, and cents (ex VAT). */
    repeatDiscountPercent: real('repeat_discount_percent').notNull().default(0),
    repeatDiscount: integer('repeat_discount').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('projects_client_idx').on(t.clientId),
    index('projects_pilot_idx').on(t.pilotId),
    index('projects_status_idx').on(t.status),
    index('projects_created_idx').on(t.createdAt),
    index('projects_site_idx').on(t.siteId),
  ],
)

export const projectFiles = sqliteTable(
  'project_files',
  {
    id: id(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The storage key: the server-chosen path of the file inside DATA_DIR. */
    fileName: text('file_name').notNull(),
    originalName: text('original_name', { length: 255 }).notNull(),
    fileUrl: text('file_url').notNull(),
    fileType: text('file_type', { length: 100 }).notNull(),
    fileSize: integer('file_size').notNull(),
    fileCategory: text('file_category', { length: 40 })
      .$type<FileCategory>()
      .notNull()
      .default('project_document'),
    uploadedBy: integer('uploaded_by').references(() => users.id, {
      onDelete: 'set null',
    }),
    /** Hex SHA-256 of the content, computed while it was received (also the ETag). */
    sha256: text('sha256', { length: 64 }),
    /** Where a raw photo was taken (EXIF GPS, WGS84 degrees); null when it has none. */
    gpsLatitude: real('gps_latitude'),
    gpsLongitude: real('gps_longitude'),
    /** EXIF GPS altitude, metres above sea level. */
    gpsAltitudeM: real('gps_altitude_m'),
    /** EXIF DateTimeOriginal, when the photo says. */
    takenAt: integer('taken_at', { mode: 'timestamp_ms' }),
    /** EXIF Make and Model ("DJI FC6310"), when the photo says. */
    camera: text('camera', { length: 100 }),
    /** When the EXIF was read (null: not read yet — read once, lazily, for older photos). */
    exifReadAt: integer('exif_read_at', { mode: 'timestamp_ms' }),
    /** Set when the retention job deleted the bytes; the row stays as the record of what was delivered. */
    removedAt: integer('removed_at', { mode: 'timestamp_ms' }),
    /** processed_deliverable only: what it is (found from the content; an admin may change it). */
    deliverableKind: text('deliverable_kind', { length: 20 }).$type<DeliverableKind>(),
    /** GeoTIFF deliverables: JSON RasterInfo read with gdalinfo. */
    rasterInfo: text('raster_info', { mode: 'json' }).$type<RasterInfo>(),
    /** processed_deliverable only: its accuracy statement (null: "accuracy not stated"). */
    accuracy: text('accuracy', { mode: 'json' }).$type<DeliverableAccuracy>(),
    /** Elevation models: the surveyed checkpoints compared with the model (null: none given). */
    checkpoints: text('checkpoints', { mode: 'json' }).$type<CheckpointReport>(),
    /** The photogrammetry job that made this deliverable (null: uploaded by hand). */
    processingJobId: integer('processing_job_id'),
    /** The job as it ran: node, options, engine version, processing time, image count. */
    processingNote: text('processing_note', { mode: 'json' }).$type<ProcessingNote>(),
    /**
     * A processing job's output held back until the job's outputs are published (it completed and
     * its viewing copies are ready): no one but an admin sees it (`files/access.server.ts`).
     */
    withheld: bool('withheld').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('project_files_project_idx').on(t.projectId),
    uniqueIndex('project_files_file_name_unique').on(t.fileName),
    index('project_files_withheld_idx')
      .on(t.processingJobId)
      .where(sql`${t.withheld} = 1`),
  ],
)

export const invoices = sqliteTable(
  'invoices',
  {
    id: id(),
    /** Display number, e.g. INV-000042 (from the never-reused row id). */
    invoiceNumber: text('invoice_number', { length: 40 }),
    /** Sequential tax invoice number, assigned when the invoice is paid. */
    taxInvoiceNumber: integer('tax_invoice_number'),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectName: text('project_name', { length: 255 }).notNull(),
    description: text('description'),
    /** Total including VAT, cents. */
    amount: integer('amount').notNull(),
    subtotalAmount: integer('subtotal_amount').notNull().default(0),
    vatAmount: integer('vat_amount').notNull().default(0),
    paymentMethod: text('payment_method', { length: 50 }).notNull().default('PayFast'),
    paymentTransactionId: text('payment_transaction_id', { length: 100 }),
    status: text('status', { length: 20 }).notNull().default('pending'),
    termsVersion: text('terms_version', { length: 20 }),
    /** What the tax invoice carries, frozen when the invoice is made (kept after account deletion). */
    billingName: text('billing_name', { length: 255 }),
    billingEmail: text('billing_email', { length: 255 }),
    billingAddress: text('billing_address', { length: 500 }),
    billingVatNumber: text('billing_vat_number', { length: 20 }),
    /** The supplier's details (COMPANY_*) at issue, JSON: later changes don't rewrite history. */
    supplierSnapshot: text('supplier_snapshot'),
    dueDate: integer('due_date', { mode: 'timestamp_ms' }),
    paidAt: integer('paid_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('invoices_client_idx').on(t.clientId),
    index('invoices_project_idx').on(t.projectId),
    index('invoices_status_idx').on(t.status),
    uniqueIndex('invoices_tax_number_unique').on(t.taxInvoiceNumber),
  ],
)

/** One checkout attempt at the payment gateway. */
export const payments = sqliteTable(
  'payments',
  {
    id: id(),
    /** Our id sent to PayFast as m_payment_id. */
    mPaymentId: text('m_payment_id', { length: 100 }).notNull(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').references(() => invoices.id, {
      onDelete: 'set null',
    }),
    clientId: integer('client_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    /**
     * pending | paid | failed | cancelled | superseded | expired | unapplied (money received
     * for a superseded or expired attempt: refund or re-quote, never marks the project paid).
     */
    status: text('status', { length: 20 }).notNull().default('pending'),
    mode: text('mode', { length: 20 }).notNull(),
    pfPaymentId: text('pf_payment_id', { length: 100 }),
    amountFee: integer('amount_fee'),
    amountNet: integer('amount_net'),
    paidAt: integer('paid_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_m_payment_id_unique').on(t.mPaymentId),
    uniqueIndex('payments_pf_payment_id_unique').on(t.pfPaymentId),
    index('payments_project_idx').on(t.projectId),
  ],
)

/** Every ITN received, with what we concluded about it. */
export const paymentNotifications = sqliteTable(
  'payment_notifications',
  {
    id: id(),
    paymentId: integer('payment_id').references(() => payments.id, {
      onDelete: 'set null',
    }),
    mPaymentId: text('m_payment_id', { length: 100 }),
    pfPaymentId: text('pf_payment_id', { length: 100 }),
    paymentStatus: text('payment_status', { length: 20 }),
    /**
     * The whole body for notifications that passed the signature and source checks; for
     * any other only its first 256 characters (the rest is not kept).
     */
    rawBody: text('raw_body').notNull(),
    /** SHA-256 (hex) of the whole body as received. */
    bodySha256: text('body_sha256', { length: 64 }),
    sourceIp: text('source_ip', { length: 64 }),
    /** accepted | duplicate | rejected */
    outcome: text('outcome', { length: 20 }).notNull(),
    reason: text('reason'),
    receivedAt: integer('received_at', { mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [index('payment_notifications_payment_idx').on(t.paymentId)],
)

/** Hours a pilot logged against a project ('Save Project Progress'). */
export const flightLogs = sqliteTable(
  'flight_logs',
  {
    id: id(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    pilotId: integer('pilot_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hours: real('hours').notNull(),
    loggedAt: integer('logged_at', { mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [index('flight_logs_pilot_idx').on(t.pilotId, t.loggedAt)],
)

/** Who changed what in the admin console, with before/after snapshots. */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: id(),
    actorId: integer('actor_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    action: text('action', { length: 100 }).notNull(),
    entityType: text('entity_type', { length: 50 }).notNull(),
    entityId: text('entity_id', { length: 50 }),
    before: text('before'),
    after: text('after'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
)

/**
 * A client's cancellation of a paid project and its refund. The credit note number comes
 * from its own counter when the admin confirms the refund made in the PayFast dashboard.
 */
export const refunds = sqliteTable(
  'refunds',
  {
    id: id(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What the client paid and what is refunded (incl. VAT), cents. */
    paidAmount: integer('paid_amount').notNull(),
    refundAmount: integer('refund_amount').notNull(),
    refundSubtotal: integer('refund_subtotal').notNull(),
    refundVat: integer('refund_vat').notNull(),
    chargeAmount: integer('charge_amount').notNull().default(0),
    /** 'cooling-off' (full refund) or 'cancellation-charge'. */
    basis: text('basis', { length: 30 }).notNull(),
    /** requested | refunded */
    status: text('status', { length: 20 }).notNull().default('requested'),
    payfastRefundReference: text('payfast_refund_reference', { length: 100 }),
    creditNoteNumber: integer('credit_note_number'),
    requestedAt: integer('requested_at', { mode: 'timestamp_ms' }).notNull(),
    refundedAt: integer('refunded_at', { mode: 'timestamp_ms' }),
    confirmedBy: integer('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('refunds_project_unique').on(t.projectId),
    uniqueIndex('refunds_credit_note_unique').on(t.creditNoteNumber),
    index('refunds_status_idx').on(t.status),
  ],
)

/** The operator's SACAA Part 101 documents and insurance, with their expiry dates. */
export const operatorDocuments = sqliteTable(
  'operator_documents',
  {
    id: id(),
    kind: text('kind', { length: 30 }).$type<OperatorDocumentKind>().notNull(),
    /** Certificate / policy number, or the aircraft's registration (ZT-…). */
    reference: text('reference', { length: 100 }).notNull(),
    /** Aircraft registration the RLA belongs to, or a short note. */
    subject: text('subject', { length: 200 }),
    /** Insurance cover, cents. */
    coverAmount: integer('cover_amount'),
    /** ISO date YYYY-MM-DD. */
    expiresAt: text('expires_at', { length: 10 }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('operator_documents_expiry_idx').on(t.expiresAt)],
)

/**
 * Uploaded copies of compliance documents: a pilot's RPL or medical certificate, or the
 * scan of an operator document. One current copy each (replacing swaps the row). The bytes
 * live under DATA_DIR/documents/, stored by the files service.
 */
export const documentCopies = sqliteTable(
  'document_copies',
  {
    id: id(),
    pilotId: integer('pilot_id').references(() => users.id, { onDelete: 'cascade' }),
    pilotDocument: text('pilot_document', { length: 20 }).$type<PilotDocumentKind>(),
    operatorDocumentId: integer('operator_document_id').references(() => operatorDocuments.id, {
      onDelete: 'cascade',
    }),
    /** The storage key inside DATA_DIR (documents/<uuid>.<ext>). */
    fileName: text('file_name').notNull(),
    originalName: text('original_name', { length: 255 }).notNull(),
    fileType: text('file_type', { length: 100 }).notNull(),
    fileSize: integer('file_size').notNull(),
    sha256: text('sha256', { length: 64 }).notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('document_copies_file_name_unique').on(t.fileName),
    uniqueIndex('document_copies_pilot_unique').on(t.pilotId, t.pilotDocument),
    uniqueIndex('document_copies_operator_unique').on(t.operatorDocumentId),
  ],
)

/**
 * The viewing copy of a raster deliverable (Cloud Optimized GeoTIFF, preview, thumbnail),
 * made by a durable background job: the row is the job.
 */
export const deliverableViews = sqliteTable(
  'deliverable_views',
  {
    id: id(),
    fileId: integer('file_id')
      .notNull()
      .references(() => projectFiles.id, { onDelete: 'cascade' }),
    status: text('status', { length: 20 }).$type<ViewStatus>().notNull().default('queued'),
    progressPercent: integer('progress_percent').notNull().default(0),
    /** Why it failed, in words an admin can act on. */
    error: text('error', { length: 500 }),
    attempts: integer('attempts').notNull().default(0),
    /** Storage keys inside DATA_DIR (null until ready). */
    cogName: text('cog_name'),
    previewName: text('preview_name'),
    thumbnailName: text('thumbnail_name'),
    /** Elevation models: the value range for the colour legend (metres). */
    minValue: real('min_value'),
    maxValue: real('max_value'),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('deliverable_views_file_unique').on(t.fileId),
    index('deliverable_views_status_idx').on(t.status),
  ],
)

/** A link that shows a project's deliverables without an account. The token is stored hashed. */
export const shareLinks = sqliteTable(
  'share_links',
  {
    id: id(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Hex SHA-256 of the random token (the token itself is shown once, in the URL). */
    tokenHash: text('token_hash', { length: 64 }).notNull(),
    /** JSON array of file ids; null shares every deliverable of the project. */
    fileIds: text('file_ids', { mode: 'json' }).$type<number[] | null>(),
    allowDownload: bool('allow_download').notNull().default(false),
    /** The owner chose to show the project's map notes through this link (read-only). */
    includeNotes: bool('include_notes').notNull().default(false),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    /** Why it stopped: its owner (null, as before this column) or the project moved back from completed. */
    revokedReason: text('revoked_reason', { length: 20 }).$type<'project-reopened'>(),
    openCount: integer('open_count').notNull().default(0),
    downloadCount: integer('download_count').notNull().default(0),
    lastOpenedAt: integer('last_opened_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('share_links_token_unique').on(t.tokenHash),
    index('share_links_project_idx').on(t.projectId),
  ],
)

/**
 * One run of a site's repeat schedule: the draft project made for a preferred date and the
 * reminder e-mail. The unique (site, date) pair makes each run happen once, restarts or not.
 */
export const siteScheduledSurveys = sqliteTable(
  'site_scheduled_surveys',
  {
    id: id(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    dueOn: text('due_on', { length: 10 }).notNull(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    remindedAt: integer('reminded_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('site_scheduled_surveys_site_due_unique').on(t.siteId, t.dueOn)],
)

/** A NodeODM (or ClusterODM) server photos are sent to. The token is stored, never shown back. */
export const processingNodes = sqliteTable('processing_nodes', {
  id: id(),
  label: text('label', { length: 100 }).notNull(),
  url: text('url', { length: 500 }).notNull(),
  token: text('token', { length: 500 }),
  enabled: bool('enabled').notNull().default(true),
  online: bool('online').notNull().default(false),
  queueCount: integer('queue_count').notNull().default(0),
  maxImages: integer('max_images'),
  engineVersion: text('engine_version', { length: 100 }),
  lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }),
  /** The first failed check since the node was last seen (offline after two minutes of these). */
  failingSince: integer('failing_since', { mode: 'timestamp_ms' }),
  lastError: text('last_error', { length: 500 }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

/** One run of a project's photos through a processing node: the row is the durable job. */
export const processingJobs = sqliteTable(
  'processing_jobs',
  {
    id: id(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    nodeId: integer('node_id').references(() => processingNodes.id, { onDelete: 'set null' }),
    /** The node the admin asked for (null: any node). */
    requestedNodeId: integer('requested_node_id').references(() => processingNodes.id, {
      onDelete: 'set null',
    }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    taskUuid: text('task_uuid', { length: 64 }),
    preset: text('preset', { length: 20 }).$type<ProcessingPreset>().notNull(),
    /** The admin's extra ODM options, `{ name: value }`. */
    options: text('options', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    status: text('status', { length: 20 }).$type<ProcessingStatus>().notNull().default('queued'),
    progressPercent: integer('progress_percent').notNull().default(0),
    stage: text('stage', { length: 200 }),
    imagesCount: integer('images_count').notNull().default(0),
    imagesUploaded: integer('images_uploaded').notNull().default(0),
    /** SHA-256 of the secret in the webhook URL given to the node. */
    webhookSecretHash: text('webhook_secret_hash', { length: 64 }),
    resubmits: integer('resubmits').notNull().default(0),
    /** Failed attempts at making the task on a node that answered (5xx): the job fails after a few. */
    submitAttempts: integer('submit_attempts').notNull().default(0),
    error: text('error', { length: 2000 }),
    engineVersion: text('engine_version', { length: 100 }),
    /** The node's last console lines (a tail, newest last). */
    outputTail: text('output_tail', { mode: 'json' }).$type<string[]>(),
    /** How many console lines were read so far (the next `?line=`). */
    outputLines: integer('output_lines').notNull().default(0),
    /** When the node was last reached for this job (resubmitted elsewhere after 10 minutes without). */
    nodeSeenAt: integer('node_seen_at', { mode: 'timestamp_ms' }),
    /** When the job is next due a look (polling and retry back-off). */
    nextCheckAt: integer('next_check_at', { mode: 'timestamp_ms' }),
    /** What the import left out of the node's archive and why (the admin's eyes only). */
    skipped: text('skipped', { mode: 'json' }).$type<ProcessingSkip[]>().notNull().default([]),
    /** Set while a cancel is asked and not yet sent to the node. */
    cancelRequested: bool('cancel_requested').notNull().default(false),
    /** What its outputs do to the project's earlier processing outputs once published: replace them or add to them. */
    outputs: text('outputs', { length: 10 }).$type<JobOutputs>().notNull().default('replace'),
    /** When its outputs became the project's deliverables (null: not yet, or never for a failed job). */
    publishedAt: integer('published_at', { mode: 'timestamp_ms' }),
    /** The photo check's problems the admin chose to go on with (null: none were found). */
    acceptedWarnings: text('accepted_warnings', { mode: 'json' }).$type<PhotoProblem[]>(),
    /** Complete the project (and e-mail the client) once the job's viewing copies are ready. */
    deliverWhenDone: bool('deliver_when_done').notNull().default(false),
    /** When the job's end was acted on (delivered, or the admins e-mailed); null while that is due. */
    followedUpAt: integer('followed_up_at', { mode: 'timestamp_ms' }),
    /** What that was: "Delivered to the client", or why the admin must review. */
    followUpNote: text('follow_up_note', { length: 500 }),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('processing_jobs_project_idx').on(t.projectId),
    index('processing_jobs_status_idx').on(t.status),
  ],
)

/** What a polygon note measured (stored when it is saved; volumes only on an elevation model). */
export type AnnotationMeasurement = {
  lengthM?: number
  areaM2?: number
  cutM3?: number
  fillM3?: number
  netM3?: number
  base?: AnnotationBase
  baseElevationM?: number
  /** The elevation model the volume was measured on. */
  fileId?: number
  /** A stockpile's mass: its net volume (`netM3`) × its density, tonnes (worked out when read, never stored). */
  tonnes?: number
  /** A stockpile's (or pit's) volume on each survey of its site, kept until its shape or base changes. */
  series?: StockpileMeasure[]
}

/** A stockpile note measured on one survey's elevation model (`outside`: the polygon misses it). */
export type StockpileMeasure =
  | { fileId: number; cutM3: number; fillM3: number; netM3: number; baseElevationM: number }
  | { fileId: number; outside: true }

/** A note on a project's Map view: a GeoJSON geometry in WGS84 with a title, a note and a colour. */
export const annotations = sqliteTable(
  'annotations',
  {
    id: id(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { length: 10 }).$type<AnnotationKind>().notNull(),
    /** GeoJSON Point, LineString or Polygon, [lng, lat] (WGS84). */
    geometry: text('geometry', { mode: 'json' })
      .$type<GeoJSON.Point | GeoJSON.LineString | GeoJSON.Polygon>()
      .notNull(),
    title: text('title', { length: 200 }).notNull(),
    note: text('note', { length: 2000 }).notNull().default(''),
    /** '#rrggbb'. */
    color: text('color', { length: 7 }).notNull(),
    /** Polygons on a site: measured on every survey of the site. */
    stockpileKind: text('stockpile_kind', { length: 10 }).$type<StockpileKind>(),
    /** Polygons: the volume's base; `typed` reads `baseElevationM`. */
    base: text('base', { length: 20 }).$type<AnnotationBase>(),
    baseElevationM: real('base_elevation_m'),
    /** Stockpiles: what the pile is of, and its bulk density (t/m³) that turns volume into tonnes. */
    material: text('material', { length: 60 }),
    densityTPerM3: real('density_t_per_m3'),
    measurement: text('measurement', { mode: 'json' }).$type<AnnotationMeasurement>().notNull(),
    /** The geometry's bounds (WGS84), for the Map view's load by bounding box. */
    minLng: real('min_lng'),
    minLat: real('min_lat'),
    maxLng: real('max_lng'),
    maxLat: real('max_lat'),
    /** Positions in the geometry (a closed ring counts its last corner): the project's vertex budget. */
    vertexCount: integer('vertex_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('annotations_project_idx').on(t.projectId)],
)

/**
 * A design surface of a project (a LandXML TIN, a GeoTIFF design model, a DXF of 3D faces): the
 * uploaded file and the design raster made from it (Float32 GeoTIFF in `crs`) that cut/fill warps
 * onto an elevation model's grid; the outline and extent in WGS84 for the map.
 */
export const designSurfaces = sqliteTable(
  'design_surfaces',
  {
    id: id(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name', { length: 120 }).notNull(),
    kind: text('kind', { length: 10 }).$type<DesignSurfaceKind>().notNull(),
    originalName: text('original_name', { length: 255 }).notNull(),
    /** Stored keys under DATA_DIR: the upload as sent, and the design raster. */
    fileName: text('file_name').notNull(),
    rasterName: text('raster_name').notNull(),
    /** 'EPSG:code' the design's coordinates are in. */
    crs: text('crs', { length: 40 }).notNull(),
    /** The design raster's outline, GeoJSON Polygon [lng, lat] (WGS84). */
    outline: text('outline', { mode: 'json' }).$type<GeoJSON.Polygon>().notNull(),
    /** [west, south, east, north] in WGS84 degrees. */
    extent: text('extent', { mode: 'json' }).$type<[number, number, number, number]>().notNull(),
    minElevationM: real('min_elevation_m'),
    maxElevationM: real('max_elevation_m'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('design_surfaces_project_idx').on(t.projectId)],
)

/**
 * The bucket's outbox (FILE_STORE=s3): a row per stored file under DATA_DIR, by its key
 * (the path inside DATA_DIR, the object's key under S3_PREFIX). `pending` → copied and read
 * back → `safe`; `deleting` → the object is deleted, then the row. `version` grows on every
 * change, so a transfer that raced one does not mark the newer state done.
 */
export const storedObjects = sqliteTable(
  'stored_objects',
  {
    key: text('key').primaryKey(),
    state: text('state', { length: 10 }).$type<'pending' | 'safe' | 'deleting'>().notNull(),
    version: integer('version').notNull().default(1),
    size: integer('size'),
    /** Our SHA-256 of the bytes (null until the outbox has hashed a file registered without one). */
    sha256: text('sha256', { length: 64 }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    lastError: text('last_error', { length: 500 }),
    safeAt: integer('safe_at', { mode: 'timestamp_ms' }),
    /** When the local copy was removed from the cache (null: on DATA_DIR). */
    evictedAt: integer('evicted_at', { mode: 'timestamp_ms' }),
    lastReadAt: integer('last_read_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('stored_objects_due_idx').on(t.state, t.nextAttemptAt),
    index('stored_objects_read_idx').on(t.evictedAt, t.lastReadAt),
  ],
)

/**
 * Mail not yet taken by the SMTP server (`lib/mail/mail-outbox.server.ts`): written before each
 * send, deleted once sent. `sending` rows belong to the process named by `owner`; a start turns
 * another process's `sending` rows `queued`, and the outbox sends those when `dueAt` comes.
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The Message-ID every attempt carries (a receiver drops a repeat). */
    messageId: text('message_id', { length: 200 }).notNull(),
    /** The message as JSON, attachments in base64. */
    message: text('message').notNull(),
    state: text('state', { length: 10 }).$type<'sending' | 'queued'>().notNull(),
    owner: text('owner', { length: 40 }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    dueAt: integer('due_at', { mode: 'timestamp_ms' }).notNull(),
    lastError: text('last_error', { length: 300 }),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_due_idx').on(t.state, t.dueAt)],
)

/** Named monotonically increasing counters (tax invoice numbers). */
export const counters = sqliteTable('counters', {
  name: text('name').primaryKey(),
  value: integer('value').notNull().default(0),
})

export type User = typeof users.$inferSelect
export type Project = typeof projects.$inferSelect
export type Hub = typeof hubs.$inferSelect
export type DroneProfile = typeof droneProfiles.$inferSelect
export type AirspaceZone = typeof airspaceZones.$inferSelect
export type Invoice = typeof invoices.$inferSelect
export type Payment = typeof payments.$inferSelect
export type ProjectFile = typeof projectFiles.$inferSelect
export type Annotation = typeof annotations.$inferSelect
export type Refund = typeof refunds.$inferSelect
export type OperatorDocument = typeof operatorDocuments.$inferSelect
export type DocumentCopy = typeof documentCopies.$inferSelect
export type DeliverableView = typeof deliverableViews.$inferSelect
export type ShareLink = typeof shareLinks.$inferSelect
export type Site = typeof sites.$inferSelect
export type SiteScheduledSurvey = typeof siteScheduledSurveys.$inferSelect
export type ProcessingNode = typeof processingNodes.$inferSelect
export type ProcessingJob = typeof processingJobs.$inferSelect
export type StoredObject = typeof storedObjects.$inferSelect
export type MailOutboxRow = typeof mailOutbox.$inferSelect
export type DesignSurface = typeof designSurfaces.$inferSelect

// Silence "unused" for sql if a later migration needs raw defaults.
void sql
