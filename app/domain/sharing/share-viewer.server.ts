/**
 * What the public viewer page shows of an open link (ADR 233): the shared deliverables as
 * the deliverables service describes them (kind, size, SHA-256, raster facts, viewing
 * copy), with every URL pointing through the link instead of the signed-in /api, and the
 * map's survey areas and layers. A view-only link's map reads the reduced copies
 * (half the resolution; an elevation model as colours), and its PDFs can be read inline.
 */
import { annotationsOfProject } from '#app/domain/annotations/annotations.server.ts'
import type { Deliverable, ViewFile } from '#app/domain/deliverables/deliverable.ts'
import {
  deliverablesWithoutAccessCheck,
  viewFileWithoutAccessCheck,
} from '#app/domain/deliverables/deliverables.server.ts'
import { toMapLayer } from '#app/domain/deliverables/map-view.server.ts'
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import { DomainError, isDomainError } from '#app/lib/http/domain-error.ts'

import type { OpenShare } from './share-access.server.ts'
import { SHARE_MESSAGES } from './share-rules.ts'

/** Whether a deliverable's view-only copy is on disk (copies made before it existed have none). */
function hasReducedCopy(deliverable: Deliverable) {
  try {
    viewFileWithoutAccessCheck(deliverable.projectId, deliverable.id, 'cog', undefined, { reduced: true })
    return true
  } catch (error) {
    if (isDomainError(error)) return false
    throw error
  }
}

/**
 * A viewing copy's address through the link (null when the deliverable has none ready). The
 * COG of a view-only link is its reduced copy, so none until that exists.
 */
function throughLink(token: string, deliverable: Deliverable, which: ViewFile, viewOnly: boolean) {
  const view = deliverable.view
  const apiUrl = { cog: view?.cogUrl, preview: view?.previewUrl, thumbnail: view?.thumbnailUrl }[which]
  if (!apiUrl || (viewOnly && which === 'cog' && !hasReducedCopy(deliverable))) return null
  return `/s/${token}/files/${deliverable.id}/view/${which}`
}

/** A PDF read in the browser through the link (view-only links too: reading is not downloading). */
function readUrlOf(token: string, deliverable: Deliverable) {
  return deliverable.mime === 'application/pdf' && !deliverable.removedAt
    ? `/s/${token}/files/${deliverable.id}/view/pdf`
    : null
}

function sharedFileView(token: string, deliverable: Deliverable, allowDownload: boolean) {
  const viewOnly = !allowDownload
  return {
    id: deliverable.id,
    name: deliverable.fileName,
    kind: deliverable.kind,
    sizeBytes: deliverable.sizeBytes,
    sha256: deliverable.sha256,
    raster: deliverable.raster,
    accuracy: deliverable.accuracy,
    checkpoints: deliverable.checkpoints,
    previewUrl: throughLink(token, deliverable, 'preview', viewOnly),
    thumbnailUrl: throughLink(token, deliverable, 'thumbnail', viewOnly),
    cogUrl: throughLink(token, deliverable, 'cog', viewOnly),
    readUrl: readUrlOf(token, deliverable),
    accuracyPdfUrl: deliverable.checkpoints ? `/s/${token}/files/${deliverable.id}/accuracy.pdf` : null,
    downloadUrl: allowDownload ? `/s/${token}/files/${deliverable.id}` : null,
    // Contours are made from the original: a link that gives the data gives them too.
    contoursUrl:
      allowDownload && deliverable.kind === 'elevation'
        ? `/s/${token}/files/${deliverable.id}/contours`
        : null,
  }
}

/** A file the link shares, as a deliverable (its checkpoint report with it). */
export function sharedDeliverable(share: OpenShare, file: { id: number }) {
  const found = deliverablesWithoutAccessCheck(share.project.id).find((d) => d.id === file.id)
  if (!found) throw new DomainError(404, SHARE_MESSAGES.fileNotShared)
  return found
}

export function shareViewerData(token: string, share: OpenShare) {
  const shared = new Set(share.files.map((f) => f.id))
  // The service lists newest first; a link shows them in the order they were delivered.
  const deliverables = deliverablesWithoutAccessCheck(share.project.id)
    .filter((d) => shared.has(d.id))
    .reverse()
  return {
    state: 'open' as const,
    projectName: share.project.name,
    expiresAt: share.link.expiresAt.toISOString(),
    allowDownload: share.link.allowDownload,
    downloadAllUrl: share.link.allowDownload ? `/s/${token}/download-all` : null,
    files: deliverables.map((d) => sharedFileView(token, d, share.link.allowDownload)),
    // The map: the client's own survey outline and the shared rasters, read through the link.
    areas: flightPlanAreas(share.project.flightPlan) ?? [],
    layers: deliverables.flatMap((d) => {
      const viewOnly = !share.link.allowDownload
      const layer = toMapLayer(d, (_, which) => throughLink(token, d, which, viewOnly))
      // A view-only link's elevation model is already colours: the map shows it as it is.
      return layer ? [viewOnly && layer.kind === 'elevation' ? { ...layer, rendered: true } : layer] : []
    }),
    // The map notes when the owner chose to show them: read-only, without who wrote them.
    notes: share.link.includeNotes
      ? annotationsOfProject(share.project.id).map(({ authorId: _authorId, ...note }) => note)
      : [],
  }
}
export type ShareViewerData = ReturnType<typeof shareViewerData>
