/**
 * How a processed deliverable is shown: the `/api/projects/{id}/deliverables` answer, the
 * client's and admin's lists, the Map view and share links. Browser-safe.
 */
import { formatNumber, plural } from '#app/lib/format/numbers.ts'
import { DELIVERABLE_KINDS, type DeliverableKind, type ProcessingPreset, type ViewStatus } from '#db/enums.ts'
import type { CheckpointReport, DeliverableAccuracy, RasterInfo } from '#db/schema.ts'

export { DELIVERABLE_KINDS, type DeliverableKind }

export const DELIVERABLE_KIND_LABELS: Record<DeliverableKind, string> = {
  orthomosaic: 'Orthomosaic',
  elevation: 'Elevation model',
  point_cloud: 'Point cloud',
  model_3d: '3D model',
  vector: 'Vector data',
  report: 'Report',
  image: 'Image',
  video: 'Video',
  other: 'Other',
}

/** The viewing copies one can ask for at `…/deliverables/{fileId}/view/{name}`. */
export const VIEW_FILES = ['cog', 'preview', 'thumbnail'] as const
export type ViewFile = (typeof VIEW_FILES)[number]

/** @public (the Map view and share links read it): what gdalinfo said, as stored on the file. */
export type DeliverableRaster = RasterInfo

/** @public (the Map view and share links read it) */
export interface DeliverableViewState {
  status: ViewStatus
  progressPercent: number
  /** Why it failed (null otherwise): GDAL's words for admins, `DELIVERABLE_MESSAGES.viewFailed` for everyone else. */
  error: string | null
  /** Ready only: the Cloud Optimized GeoTIFF (HTTP Range), the ~1600 px preview and the ~320 px thumbnail. */
  cogUrl: string | null
  previewUrl: string | null
  thumbnailUrl: string | null
  /** Elevation models: the value range (metres) for the colour legend. */
  minValue: number | null
  maxValue: number | null
}

export interface Deliverable {
  id: number
  projectId: number
  fileName: string
  kind: DeliverableKind
  /** The detected content type. */
  mime: string
  sizeBytes: number
  sha256: string | null
  downloadUrl: string
  createdAt: string
  /** Set when the retention job deleted the bytes. */
  removedAt: string | null
  raster: DeliverableRaster | null
  view: DeliverableViewState | null
  /** The accuracy statement, the admin's or read from ODM's report; null: "accuracy not stated". */
  accuracy: DeliverableAccuracy | null
  /** Elevation models: surveyed checkpoints against the model (null: none given). */
  checkpoints: CheckpointReport | null
  /** Made by a processing job: what it noted (the node, its engine and options for admins only). */
  processing: DeliverableProcessing | null
  /** A processing job's output not published yet: only an admin's review lists one. */
  held: boolean
}

export interface DeliverableProcessing {
  preset: ProcessingPreset
  imagesCount: number
  processingMs: number | null
  /** Made by Kestrel's NodeODM simulator: not a survey. */
  simulated: boolean
  nodeLabel: string | null
  engineVersion: string | null
  options: Record<string, unknown> | null
}

/** Kinds that are measured on the ground, so carry an accuracy statement (or say it is not stated). */
export function hasAccuracyStatement(kind: DeliverableKind) {
  return kind === 'orthomosaic' || kind === 'elevation' || kind === 'point_cloud' || kind === 'model_3d'
}

const ACCURACY_NOT_STATED = 'accuracy not stated'

const centimetres = (metres: number) => `± ${formatNumber(metres * 100, 1, { minDecimals: 0 })} cm`

/** "± 4 cm horizontal, ± 6 cm vertical, 6 GCPs, 3 check points", or "accuracy not stated". */
export function accuracyText(accuracy: DeliverableAccuracy | null | undefined) {
  if (!accuracy) return ACCURACY_NOT_STATED
  return [
    `${centimetres(accuracy.horizontalRmseM)} horizontal`,
    `${centimetres(accuracy.verticalRmseM)} vertical`,
    plural(accuracy.gcpCount, 'GCP'),
    plural(accuracy.checkpointCount, 'check point'),
  ].join(', ')
}

/** Metres as centimetres, one decimal at most: "4,2 cm". */
export const cm = (metres: number) => `${formatNumber(metres * 100, 1, { minDecimals: 0 })} cm`

/**
 * Surveyed checkpoints against an elevation model in one line: "31 checkpoints: vertical RMSE
 * 4,2 cm (ASPRS 5-cm class), mean error −0,8 cm; horizontal RMSE 3,1 cm (12 targets)"; null
 * without a check. The warning (fewer than 30) is the report's own words, after it.
 */
export function checkpointText(report: CheckpointReport | null | undefined) {
  if (!report) return null
  const parts = [`${plural(report.usedCount, 'checkpoint')} on the model`]
  if (report.verticalRmseM !== null) {
    const asprs = report.asprsVerticalClass ? ` (ASPRS ${report.asprsVerticalClass} class)` : ''
    parts.push(`vertical RMSE ${cm(report.verticalRmseM)}${asprs}`)
  }
  if (report.meanErrorM !== null) parts.push(`mean error ${cm(report.meanErrorM)}`)
  let text = parts.join(', ')
  if (report.horizontalRmseM !== null)
    text += `; horizontal RMSE ${cm(report.horizontalRmseM)} (${plural(report.horizontalCount, 'target')})`
  return report.warning ? `${text}. ${report.warning}` : text
}

/** The GSD a statement gives: the source's own, else the raster's pixel size; null when neither says. */
export function statedGsdCm(d: Pick<Deliverable, 'accuracy' | 'raster'>) {
  return d.accuracy?.gsdCm ?? d.raster?.gsdCm ?? null
}

/** The stable URL of one viewing copy (Range + ETag). */
export function viewFileUrl(projectId: number, fileId: number, which: ViewFile) {
  return `/api/projects/${projectId}/deliverables/${fileId}/view/${which}`
}

/** Kinds whose viewing copy is a raster on the map. */
export function isRasterKind(kind: DeliverableKind) {
  return kind === 'orthomosaic' || kind === 'elevation'
}

export const DELIVERABLE_MESSAGES = {
  notFound: 'Deliverable not found',
  viewNotReady: 'The viewing copy is not ready yet',
  /** A processing job's output not published yet (the admin's review). */
  held: 'Held: the client sees it once its processing job’s outputs are published',
  /** What everyone but an admin reads when a viewing copy failed (GDAL's words and paths are for admins). */
  viewFailed: 'We couldn’t prepare this file for viewing; our team has been told. You can still download it.',
  invalidKind: `Kind must be one of ${DELIVERABLE_KINDS.join(', ')}`,
  kindSaved: 'Deliverable kind saved',
  accuracySaved: 'Accuracy statement saved',
  accuracyCleared: 'Accuracy statement removed',
  lowOverlap: (kind: DeliverableKind, percent: string) =>
    `This ${DELIVERABLE_KIND_LABELS[kind].toLowerCase()} covers ${percent} of the survey areas — is it the right project?`,
} as const

/** Below this share of the survey areas the admin is warned before completing. */
export const LOW_OVERLAP_PERCENT = 50
