/**
 * What a received file is: its type read from its content (magic bytes), checked
 * against an accept list and the per-kind size limit, and the user's name for it cleaned.
 */
import fs from 'node:fs'
import { detectDeliverable } from '#app/domain/files/content.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { DeliverableKind, FileCategory } from '#db/schema.ts'
import { fileTypeFromFile } from 'file-type'

import { FileTooLargeError, type ReceivedFile } from './receive.server.ts'
import { CATEGORY_ACCEPT, extensionOf, FILE_MESSAGES, kindOfMime, limitFor, type FileKind } from './rules.ts'

export interface DetectedType {
  mime: string
  ext: string
  /** Deliverables: what the content says it is. */
  deliverableKind?: DeliverableKind
}

async function looksLikeText(file: string) {
  const handle = await fs.promises.open(file, 'r')
  try {
    const buf = Buffer.alloc(8192)
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0)
    const head = buf.subarray(0, bytesRead)
    if (head.includes(0)) return false
    return !new TextDecoder('utf-8', { fatal: false }).decode(head).includes('\uFFFD')
  } finally {
    await handle.close()
  }
}

/** The type by content (magic bytes), with the name deciding only between look-alikes (doc, txt). */
async function detectType(file: string, originalName: string): Promise<DetectedType | null> {
  const nameExt = extensionOf(originalName)
  const found = await fileTypeFromFile(file)
  if (found) {
    if (found.ext === 'cfb') return nameExt === 'doc' ? { mime: 'application/msword', ext: 'doc' } : null
    return { mime: found.mime, ext: found.ext }
  }
  if (nameExt === 'txt' && (await looksLikeText(file))) return { mime: 'text/plain', ext: 'txt' }
  return null
}

/** The file's checked type and limit for a category; throws 415 / 413 with the messages of FILE_MESSAGES. */
export async function checkContent(
  received: ReceivedFile,
  originalName: string,
  category: FileCategory,
): Promise<DetectedType> {
  if (category === 'processed_deliverable') return checkDeliverableContent(received, originalName)
  return checkContentAgainst(received, originalName, CATEGORY_ACCEPT[category], (kind) =>
    limitFor(category, kind),
  )
}

/** Deliverables: the survey formats by content (LAS, KML, GeoJSON, DXF, ZIP contents…), one size limit. */
async function checkDeliverableContent(received: ReceivedFile, originalName: string): Promise<DetectedType> {
  const accept = CATEGORY_ACCEPT.processed_deliverable
  const detected = await detectDeliverable(received.path, originalName)
  if (!detected || !acceptsDetected(accept, detected)) {
    throw new DomainError(415, FILE_MESSAGES.invalidType(accept), {
      extra: { title: FILE_MESSAGES.invalidTypeTitle },
    })
  }
  const limit = getEnv().DELIVERABLE_MAX_BYTES
  if (received.size > limit) throw new FileTooLargeError(limit)
  return { mime: detected.mime, ext: detected.ext, deliverableKind: detected.kind }
}

/** The same check against any accept list and per-kind limit (document copies use it too). */
export async function checkContentAgainst(
  received: ReceivedFile,
  originalName: string,
  accept: readonly string[],
  limitOf: (kind: FileKind) => number,
): Promise<DetectedType> {
  const detected = await detectType(received.path, originalName)
  if (!detected || !acceptsDetected(accept, detected)) {
    throw new DomainError(415, FILE_MESSAGES.invalidType(accept), {
      extra: { title: FILE_MESSAGES.invalidTypeTitle },
    })
  }
  const limit = limitOf(kindOfMime(detected.mime))
  if (received.size > limit) throw new FileTooLargeError(limit)
  return detected
}

function acceptsDetected(accept: readonly string[], detected: DetectedType) {
  return accept.some((entry) => {
    const a = entry.toLowerCase()
    if (a.startsWith('.')) {
      const ext = a.slice(1)
      return ext === detected.ext || (ext === 'jpeg' && detected.ext === 'jpg')
    }
    if (a.endsWith('/*')) return detected.mime.startsWith(a.slice(0, -1))
    return a === detected.mime
  })
}

/** A clean display name: no folders, no control characters, at most 255 characters. */
export function cleanOriginalName(name: string) {
  const base = name.split(/[\\/]/).pop() ?? ''
  let cleaned = ''
  for (const ch of base) if (ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f) cleaned += ch
  cleaned = cleaned.trim()
  return (cleaned || 'file').slice(-255)
}
