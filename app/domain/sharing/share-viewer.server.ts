/**
 * What the public viewer page shows of an open link (ADR 233): the shared deliverables as
 * the deliverables service describes them (kind, size, SHA-256, raster facts, viewing
 * copy), with every URL pointing through the link instead of the signed-in /api, and the
 * map's survey areas and layers (ADR 246).
 */
import type { Deliverable, ViewFile } from '#app/domain/deliverables/deliverable.ts'
import { deliverablesOfProject } from '#app/domain/deliverables/deliverables.server.ts'
import { surveyAreasOf, toMapLayer } from '#app/domain/deliverables/map-view.server.ts'

import type { OpenShare } from './share-access.server.ts'

/** A viewing copy's address through the link (null when the deliverable has none ready). */
function throughLink(token: string, deliverable: Deliverable, which: ViewFile) {
  const view = deliverable.view
  const apiUrl = { cog: view?.cogUrl, preview: view?.previewUrl, thumbnail: view?.thumbnailUrl }[which]
  return apiUrl ? `/s/${token}/files/${deliverable.id}/view/${which}` : null
}

function sharedFileView(token: string, deliverable: Deliverable, allowDownload: boolean) {
  return {
    id: deliverable.id,
    name: deliverable.fileName,
    kind: deliverable.kind,
    sizeBytes: deliverable.sizeBytes,
    sha256: deliverable.sha256,
    raster: deliverable.raster,
    previewUrl: throughLink(token, deliverable, 'preview'),
    thumbnailUrl: throughLink(token, deliverable, 'thumbnail'),
    cogUrl: throughLink(token, deliverable, 'cog'),
    downloadUrl: allowDownload ? `/s/${token}/files/${deliverable.id}` : null,
  }
}

export function shareViewerData(token: string, share: OpenShare) {
  const shared = new Set(share.files.map((f) => f.id))
  // The service lists newest first; a link shows them in the order they were delivered.
  const deliverables = deliverablesOfProject(share.project.id)
    .filter((d) => shared.has(d.id))
    .reverse()
  return {
    state: 'open' as const,
    projectName: share.project.name,
    expiresAt: share.link.expiresAt.toISOString(),
    allowDownload: share.link.allowDownload,
    downloadAllUrl: share.link.allowDownload ? `/s/${token}/download-all` : null,
    files: deliverables.map((d) => sharedFileView(token, d, share.link.allowDownload)),
    // The map (ADR 246): the client's own survey outline and the shared rasters, read through the link.
    areas: surveyAreasOf(share.project),
    layers: deliverables.flatMap((d) => toMapLayer(d, (_, which) => throughLink(token, d, which)) ?? []),
  }
}
export type ShareViewerData = ReturnType<typeof shareViewerData>
