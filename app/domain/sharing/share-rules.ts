/**
 * Share links: what a link may carry and the product's messages. Browser-safe:
 * the Share form validates with the same schemas as the server.
 */
import { numberInput } from '#app/lib/http/zod-input.ts'
import { z } from 'zod'

export const SHARE_DEFAULT_DAYS = 30
export const SHARE_MAX_DAYS = 365
/** More ids than any project has deliverables: a bound on the input, not a product limit. */
const SHARE_MAX_FILES = 500

export const SHARE_MESSAGES = {
  expiryRange: `Choose between 1 and ${SHARE_MAX_DAYS} days`,
  chooseFiles: 'Choose at least one file to share',
  unknownFile: 'Only this project’s deliverables can be shared',
  notCompleted: 'You can share the deliverables once the project is completed',
  noDeliverables: 'This project has no deliverables to share yet',
  filesGone: 'The deliverables of this project are no longer available',
  notManager: 'Only the project’s client or an admin can share its deliverables',
  linkNotFound: 'Share link not found',
  created: 'Share link created',
  revoked: 'Share link revoked',
  viewOnly: 'This link lets you view the deliverables, not download them',
  fileNotShared: 'This file is not part of the shared deliverables',
  guessLimit: 'Too many unknown links from your address. Please wait a few minutes and try again.',
  /** What each kind of link gives its viewer (the Share form and the viewer page). */
  viewOnlyGets:
    'View only: the viewer sees the map at half the survey’s resolution, the elevation model as colours (no heights), the previews, point clouds in 3D thinned to at most half their points (3 million at most), 3D models as a still image only, and can read PDF reports. Nothing can be downloaded.',
  downloadGets: 'With downloads: the viewer can also download every shared file in full, with its checksum.',
} as const

const ExpiryDays = numberInput(
  z
    .number({ invalid_type_error: SHARE_MESSAGES.expiryRange })
    .int(SHARE_MESSAGES.expiryRange)
    .min(1, SHARE_MESSAGES.expiryRange)
    .max(SHARE_MAX_DAYS, SHARE_MESSAGES.expiryRange),
)

const FileId = z.number().int().positive()

/** `POST /api/projects/{id}/share-links`: no `fileIds` shares every deliverable. */
export const ShareLinkRequestSchema = z
  .object({
    fileIds: z
      .array(FileId, { invalid_type_error: SHARE_MESSAGES.chooseFiles })
      .min(1, SHARE_MESSAGES.chooseFiles)
      .max(SHARE_MAX_FILES, SHARE_MESSAGES.unknownFile)
      .optional(),
    allowDownload: z.boolean({
      required_error: 'Say whether the link allows downloads',
      invalid_type_error: 'Say whether the link allows downloads',
    }),
    expiresInDays: ExpiryDays.optional(),
    /** Show the project's map notes through the link (read-only). */
    includeNotes: z.boolean({ invalid_type_error: 'Say whether the link shows the map notes' }).optional(),
  })
  // Strict: without `fileIds` a link shares every deliverable, so a misspelt key must not mean that.
  .strict()
export type ShareLinkRequest = z.infer<typeof ShareLinkRequestSchema>

/**
 * The Share form: the ticked `fileIds` (none ticked shares every deliverable),
 * `allowDownload` (a checkbox: 'on' or missing) and `expiresInDays`.
 */
export const ShareFormSchema = z
  .object({
    fileIds: z.array(numberInput(FileId)).max(SHARE_MAX_FILES, SHARE_MESSAGES.unknownFile).optional(),
    allowDownload: z.literal('on').optional(),
    includeNotes: z.literal('on').optional(),
    expiresInDays: ExpiryDays.default(SHARE_DEFAULT_DAYS),
  })
  .transform(
    (value): ShareLinkRequest => ({
      fileIds: value.fileIds?.length ? value.fileIds : undefined,
      allowDownload: value.allowDownload === 'on',
      includeNotes: value.includeNotes === 'on',
      expiresInDays: value.expiresInDays,
    }),
  )

export type ShareLinkState = 'active' | 'revoked' | 'expired'

/** A link as its owner sees it (GET /api/projects/{id}/share-links, the Share panel). */
export interface ShareLinkView {
  id: number
  projectId: number
  /** null: every deliverable of the project. */
  fileIds: number[] | null
  fileNames: string[]
  allowDownload: boolean
  includeNotes: boolean
  expiresAt: string
  revokedAt: string | null
  /** Stopped with its project moved back from completed (not by its owner). */
  revokedReason: 'project-reopened' | null
  state: ShareLinkState
  openCount: number
  downloadCount: number
  lastOpenedAt: string | null
  createdAt: string
}
