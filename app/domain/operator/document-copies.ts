/**
 * Uploaded copies of compliance documents: a pilot's RPL and medical
 * certificate, and the scan of each operator document. Browser-safe: the forms use the
 * same accept list and limit as the server.
 */
import { FILE_LIMITS } from '#app/domain/files/rules.ts'
import type { PilotDocumentKind } from '#db/schema.ts'

export const DOCUMENT_COPY_ACCEPT = ['.pdf', '.jpg', '.jpeg', '.png'] as const
/** Every copy is a document: 10 MB, whatever its type. */
export const DOCUMENT_COPY_LIMIT = FILE_LIMITS.document

export const PILOT_DOCUMENT_LABELS: Record<PilotDocumentKind, string> = {
  rpl: 'Remote Pilot Licence (RPL)',
  medical: 'Medical certificate',
}

export const DOCUMENT_COPY_MESSAGES = {
  notFound: 'Document not found',
  uploaded: 'Copy uploaded',
  replaced: 'Copy replaced',
  invalidTarget: 'Choose the document this copy belongs to',
} as const

/** Where the download of a copy is served. */
export function documentCopyHref(copy: { id: number; originalName: string }) {
  return `/document-copies/${copy.id}?filename=${encodeURIComponent(copy.originalName)}`
}
