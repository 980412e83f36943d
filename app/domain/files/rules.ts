/**
 * What may be uploaded where, and how big it may be. Browser-safe: the upload widget
 * checks a file with the same rules before sending it, and the server checks again by
 * content (content-check.server.ts). Rules and messages: ADR 090.
 */
import type { FileCategory, Role } from '#db/schema.ts'

export type { FileCategory }

const MB = 1024 * 1024

/** Per-kind limits (images 50 MB, videos 5120 MB, everything else 10 MB). */
export const FILE_LIMITS = {
  image: 50 * MB,
  video: 5120 * MB,
  document: 10 * MB,
} as const

export type FileKind = keyof typeof FILE_LIMITS

/** A deliverable (any kind) may be this big unless DELIVERABLE_MAX_BYTES says otherwise. */
const DEFAULT_DELIVERABLE_MAX_BYTES = 20 * 1024 * MB

/** Accepted types per category, in the browser's `accept` syntax (mime wildcard, exact mime or extension). */
export const CATEGORY_ACCEPT: Record<FileCategory, readonly string[]> = {
  land_owner_agreement: ['.pdf', '.doc', '.docx', '.jpg', '.jpeg', '.png'],
  project_document: ['image/*', 'video/*', '.pdf', '.doc', '.docx', '.txt', '.zip'],
  // Survey products: checked by content, whatever the name says.
  processed_deliverable: [
    'image/*',
    'video/*',
    '.tif',
    '.tiff',
    '.pdf',
    '.doc',
    '.docx',
    '.las',
    '.laz',
    '.zip',
    '.kml',
    '.kmz',
    '.geojson',
    '.json',
    '.dxf',
    '.csv',
    '.glb',
    '.ply',
    '.obj',
  ],
  raw_image: ['image/*'],
  raw_video: ['video/*'],
}

export const CATEGORY_LABELS: Record<FileCategory, string> = {
  land_owner_agreement: 'Land owner agreement',
  processed_deliverable: 'Deliverable',
  project_document: 'Document',
  raw_image: 'Flight image',
  raw_video: 'Flight video',
}

/** The categories each role may upload. */
export const UPLOAD_CATEGORIES_BY_ROLE: Record<Role, readonly FileCategory[]> = {
  client: ['land_owner_agreement', 'project_document'],
  pilot: ['raw_image', 'raw_video', 'project_document'],
  admin: ['land_owner_agreement', 'project_document', 'processed_deliverable', 'raw_image', 'raw_video'],
}

export function isFileCategory(value: unknown): value is FileCategory {
  return typeof value === 'string' && value in CATEGORY_ACCEPT
}

export function canUploadCategory(role: Role, category: FileCategory) {
  return UPLOAD_CATEGORIES_BY_ROLE[role].includes(category)
}

export function kindOfMime(mime: string): FileKind {
  if (mime.startsWith('image/')) return 'image'
  if (mime.startsWith('video/')) return 'video'
  return 'document'
}

/**
 * The largest file of this kind in this category (the land owner form is 10 MB whatever its
 * type; a deliverable `deliverableMaxBytes` whatever its type — the server passes its setting).
 */
export function limitFor(
  category: FileCategory,
  kind: FileKind,
  deliverableMaxBytes = DEFAULT_DELIVERABLE_MAX_BYTES,
): number {
  if (category === 'land_owner_agreement') return FILE_LIMITS.document
  if (category === 'processed_deliverable') return deliverableMaxBytes
  return FILE_LIMITS[kind]
}

/** The largest file the category accepts at all (the ceiling while the type is not yet known). */
export function maxBytesForCategory(
  category: FileCategory,
  deliverableMaxBytes = DEFAULT_DELIVERABLE_MAX_BYTES,
): number {
  if (category === 'processed_deliverable') return deliverableMaxBytes
  const accept = CATEGORY_ACCEPT[category]
  const kinds: FileKind[] = ['document']
  if (accept.some((a) => a === 'image/*' || a === '.jpg' || a === '.png')) kinds.push('image')
  if (accept.includes('video/*')) kinds.push('video')
  return Math.max(...kinds.map((k) => limitFor(category, k)))
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

/** True when a file with this type and extension fits an accept list. */
export function matchesAccept(accept: readonly string[], mime: string, ext: string): boolean {
  const m = mime.toLowerCase()
  const e = ext.toLowerCase().replace(/^\./, '')
  return accept.some((entry) => {
    const a = entry.toLowerCase()
    if (a.startsWith('.'))
      return a.slice(1) === e || (a === '.jpeg' && e === 'jpg') || (a === '.jpg' && e === 'jpeg')
    if (a.endsWith('/*')) return m.startsWith(a.slice(0, -1))
    return a === m
  })
}

/** 'PDF, DOC, DOCX, JPG' or 'image, video, PDF' for the 'Only {types} files are allowed' text. */
export function describeAccept(accept: readonly string[]): string {
  return accept
    .map((a) => (a.startsWith('.') ? a.slice(1).toUpperCase() : a.endsWith('/*') ? a.slice(0, -2) : a))
    .join(', ')
}

export const FILE_MESSAGES = {
  tooLargeTitle: 'File too large',
  tooLarge: (bytes: number) => `File size must be less than ${Math.round(bytes / MB)}MB`,
  invalidTypeTitle: 'Invalid file type',
  invalidType: (accept: readonly string[]) => `Only ${describeAccept(accept)} files are allowed`,
  uploadSuccess: 'Upload successful',
  uploadFailedTitle: 'Upload failed',
  uploadFailed: (name: string) => `Failed to upload ${name}`,
  deleteFailedTitle: 'Error Deleting File',
  deleteFailed: 'Failed to delete file',
  deleted: 'File Deleted',
  removeFailedTitle: 'Remove failed',
  removeFailed: 'Failed to remove the file',
  fetchFailed: 'Failed to fetch project files',
  landOwnerUploaded: 'Annexure G uploaded successfully',
  landOwnerDeleted: 'Land owner agreement has been deleted',
  notFound: 'File not found',
  noFile: 'Please choose a file to upload',
  categoryNotAllowed: 'You cannot upload this kind of file to this project',
  diskFull: 'The server is short of storage space. Please try again later.',
  deliverablesExpired:
    'Deliverables can be downloaded for one month after completion. Please contact us for a copy.',
  removed: (date: string) =>
    `This file was deleted on ${date}: survey imagery and deliverables are kept for one month after completion (a site's deliverables until one month after its next survey).`,
} as const

/** A check the widget runs before sending: null when the file may be sent, else the toast. */
export function checkFileBeforeUpload(
  file: { name: string; type: string; size: number },
  category: FileCategory,
  accept: readonly string[] = CATEGORY_ACCEPT[category],
): { title: string; description: string } | null {
  if (!matchesAccept(accept, file.type || '', extensionOf(file.name))) {
    return { title: FILE_MESSAGES.invalidTypeTitle, description: FILE_MESSAGES.invalidType(accept) }
  }
  const limit = limitFor(category, kindOfMime(file.type || mimeFromExtension(extensionOf(file.name))))
  if (file.size > limit)
    return { title: FILE_MESSAGES.tooLargeTitle, description: FILE_MESSAGES.tooLarge(limit) }
  return null
}

const EXTENSION_MIME: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  txt: 'text/plain',
  zip: 'application/zip',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
}

export function mimeFromExtension(ext: string): string {
  return EXTENSION_MIME[ext.toLowerCase()] ?? 'application/octet-stream'
}

/** One month after completion, as the date deliverables stop being downloadable by the client. */
export function deliverablesAvailableUntil(completedAt: Date): Date {
  return monthsAfter(completedAt, 1)
}

/**
 * Survey imagery is personal information: the processed deliverables and the
 * flight's raw photos and videos are deleted once the project's files are no longer available.
 */
export const RETAINED_CATEGORIES: readonly FileCategory[] = [
  'processed_deliverable',
  'raw_image',
  'raw_video',
]

/**
 * Where a completed survey stands on its site: the comparison a client asked for by
 * putting the project on a site needs the earlier survey's deliverables until the next one is in.
 */
export interface SiteSurveyState {
  /** When the site's next survey after this one was completed; null while none is. */
  nextCompletedAt: Date | null
  /** The site waits for a next survey: a later project on it is neither cancelled nor completed, or it repeats on a schedule. */
  awaitingNext: boolean
}

/** A site that waits longer than this after a survey is not being compared: the ordinary rule applies again. */
export const SITE_WAIT_LIMIT_MONTHS = 12

function monthsAfter(date: Date, months: number) {
  const until = new Date(date)
  until.setUTCMonth(until.getUTCMonth() + months)
  return until
}

const later = (a: Date, b: Date | null | undefined) => (b && b.getTime() > a.getTime() ? b : a)

/**
 * Until when a completed project's files of this category are available: one month after
 * completion, or later when the admin kept them longer. A survey on a site keeps its processed
 * deliverables while the site waits for its next survey (at most SITE_WAIT_LIMIT_MONTHS) and
 * until one month after that survey is completed; raw photos and videos never.
 * Null before completion. Server code reads this through `files/availability.server.ts`,
 * which finds the site's state.
 */
export function filesAvailableUntil(
  project: { completedAt: Date | null; filesKeptUntil?: Date | null },
  category: FileCategory = 'processed_deliverable',
  site: SiteSurveyState | null = null,
): Date | null {
  if (!project.completedAt) return null
  const ordinary = later(deliverablesAvailableUntil(project.completedAt), project.filesKeptUntil)
  if (!site || category !== 'processed_deliverable') return ordinary
  if (site.nextCompletedAt) return later(ordinary, deliverablesAvailableUntil(site.nextCompletedAt))
  if (site.awaitingNext) return later(ordinary, monthsAfter(project.completedAt, SITE_WAIT_LIMIT_MONTHS))
  return ordinary
}
