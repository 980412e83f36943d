/**
 * The values of the columns that take one of a fixed list (roles, statuses, kinds).
 * Browser-safe: forms and labels import these lists from here, never from `schema.ts`,
 * which would pull drizzle into the browser's bundle (ADR 279). `schema.ts` re-exports them.
 * The lists come first, then the type of one value of each.
 */
export const ROLES = ['client', 'pilot', 'admin'] as const

export const PROJECT_STATUSES = [
  'draft',
  'pending',
  'assigned',
  'in_progress',
  'completed',
  'cancelled',
] as const

export const FILE_CATEGORIES = [
  'land_owner_agreement',
  'processed_deliverable',
  'project_document',
  /** The pilot's photos and videos from the flight. */
  'raw_image',
  'raw_video',
] as const

/** What a processed deliverable is, found from its content and editable by an admin. */
export const DELIVERABLE_KINDS = [
  'orthomosaic',
  'elevation',
  'point_cloud',
  'model_3d',
  'vector',
  'report',
  'image',
  'video',
  'other',
] as const

export const VIEW_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const

/** A photogrammetry job on a NodeODM node: its steps in order, then how it ended. */
export const PROCESSING_STATUSES = [
  'queued',
  'uploading',
  'processing',
  'downloading',
  'importing',
  'completed',
  'failed',
  'canceled',
] as const

export const PROCESSING_PRESETS = ['fast-orthophoto', 'standard', 'full-3d'] as const

/** What a processing job's outputs do to the project's earlier ones when published. */
export const JOB_OUTPUTS = ['replace', 'add'] as const

export const REPEAT_INTERVALS = ['month', 'quarter'] as const

export const OPERATOR_DOCUMENT_KINDS = [
  'roc',
  'ops_spec',
  'insurance',
  'aircraft_registration',
  'rla',
] as const

export const PILOT_DOCUMENT_KINDS = ['rpl', 'medical'] as const

/** A note on the Map view: a point, a line or a polygon. */
export const ANNOTATION_KINDS = ['point', 'line', 'polygon'] as const

/** A polygon note on a site measured on every survey: a pile above the ground or a pit below it. */
export const STOCKPILE_KINDS = ['stockpile', 'pit'] as const

/** The base a polygon note's volume is measured from (a typed height carries its metres). */
export const ANNOTATION_BASES = ['edge-mean', 'edge-lowest', 'triangulated', 'typed'] as const

/** What a design surface was uploaded as: a LandXML TIN, a GeoTIFF design model or a DXF of 3D faces. */
export const DESIGN_SURFACE_KINDS = ['landxml', 'geotiff', 'dxf'] as const

export type Role = (typeof ROLES)[number]
export type ProjectStatus = (typeof PROJECT_STATUSES)[number]
export type FileCategory = (typeof FILE_CATEGORIES)[number]
export type DeliverableKind = (typeof DELIVERABLE_KINDS)[number]
export type ViewStatus = (typeof VIEW_STATUSES)[number]
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number]
export type ProcessingPreset = (typeof PROCESSING_PRESETS)[number]
export type JobOutputs = (typeof JOB_OUTPUTS)[number]
export type RepeatInterval = (typeof REPEAT_INTERVALS)[number]
export type OperatorDocumentKind = (typeof OPERATOR_DOCUMENT_KINDS)[number]
export type PilotDocumentKind = (typeof PILOT_DOCUMENT_KINDS)[number]
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number]
export type StockpileKind = (typeof STOCKPILE_KINDS)[number]
export type AnnotationBase = (typeof ANNOTATION_BASES)[number]
export type DesignSurfaceKind = (typeof DESIGN_SURFACE_KINDS)[number]
