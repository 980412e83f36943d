/**
 * The stage a client (or pilot) reads: plain words only. The stored stage may carry a node's
 * words after a colon ("Sending again: Could not reach http://…/task/…"): only the words
 * before any detail are shown, and a stage that is not plain words reads as its status.
 * ODM's own stages (`odm-stages.ts`) are shown as they are.
 */
import type { ProcessingStatus } from '#db/enums.ts'

import { isOdmStage } from './odm-stages.ts'
import { PROCESSING_STATUS_LABELS } from './presets.ts'

/** Letters first, then words, digits and light punctuation; no URL, path, host or task id can pass. */
const PLAIN = /^\p{L}[\p{L}\d ,'’–-]{0,79}$/u
const ID_LIKE = /[0-9a-f]{8}|\d{6,}/i

export function plainStage(stage: string | null, status: ProcessingStatus) {
  if (!stage) return null
  // ODM's stages as people read them ("Matching the photos (OpenSfM)") pass whole.
  if (isOdmStage(stage)) return stage
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(stage)) return PROCESSING_STATUS_LABELS[status]
  const head = stage.split(/[:;(]/, 1)[0]!.trim()
  return PLAIN.test(head) && !ID_LIKE.test(head) ? head : PROCESSING_STATUS_LABELS[status]
}
