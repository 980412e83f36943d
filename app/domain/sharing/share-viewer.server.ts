/** What the public viewer page shows of an open link (ADR 233): per deliverable, its facts, preview and download. */
import type { ProjectFile } from '#db/schema.ts'

import { readyViews, viewCopyOf, type OpenShare } from './share-access.server.ts'
import { deliverableKindOf } from './share-rules.ts'

function sharedFileView(token: string, file: ProjectFile, allowDownload: boolean, previews: Set<number>) {
  const base = `/s/${token}/files/${file.id}`
  const raster = file.rasterInfo
  return {
    id: file.id,
    name: file.originalName,
    kind: deliverableKindOf(file),
    sizeBytes: file.fileSize,
    sha256: file.sha256,
    raster: raster
      ? {
          epsg: raster.epsg,
          widthPx: raster.widthPx,
          heightPx: raster.heightPx,
          bandCount: raster.bandCount,
          dataType: raster.dataType,
          gsdCm: raster.gsdCm,
          footprintHa: raster.footprintHa,
        }
      : null,
    previewUrl: previews.has(file.id) ? `${base}/view/preview` : null,
    downloadUrl: allowDownload ? base : null,
  }
}

export function shareViewerData(token: string, share: OpenShare) {
  const views = readyViews(share.files.map((f) => f.id))
  const previews = new Set(share.files.filter((f) => viewCopyOf(views.get(f.id), 'preview')).map((f) => f.id))
  return {
    state: 'open' as const,
    projectName: share.project.name,
    expiresAt: share.link.expiresAt.toISOString(),
    allowDownload: share.link.allowDownload,
    downloadAllUrl: share.link.allowDownload ? `/s/${token}/download-all` : null,
    files: share.files.map((f) => sharedFileView(token, f, share.link.allowDownload, previews)),
  }
}
export type ShareViewerData = ReturnType<typeof shareViewerData>
