/**
 * What the public viewer page shows of an open link (ADR 233): the shared deliverables as
 * the deliverables service describes them (kind, size, SHA-256, raster facts, viewing
 * copy), with every URL pointing through the link instead of the signed-in /api.
 */
import type { Deliverable, ViewFile } from '#app/domain/deliverables/deliverable.ts'
import { deliverablesOfProject } from '#app/domain/deliverables/deliverables.server.ts'

import type { OpenShare } from './share-access.server.ts'

function throughLink(token: string, fileId: number, which: ViewFile, apiUrl: string | null | undefined) {
  return apiUrl ? `/s/${token}/files/${fileId}/view/${which}` : null
}

function sharedFileView(token: string, deliverable: Deliverable, allowDownload: boolean) {
  const view = deliverable.view
  return {
    id: deliverable.id,
    name: deliverable.fileName,
    kind: deliverable.kind,
    sizeBytes: deliverable.sizeBytes,
    sha256: deliverable.sha256,
    raster: deliverable.raster,
    previewUrl: throughLink(token, deliverable.id, 'preview', view?.previewUrl),
    thumbnailUrl: throughLink(token, deliverable.id, 'thumbnail', view?.thumbnailUrl),
    cogUrl: throughLink(token, deliverable.id, 'cog', view?.cogUrl),
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
  }
}
export type ShareViewerData = ReturnType<typeof shareViewerData>
