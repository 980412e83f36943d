/** The 3D view's shapes and words, shared by the server and the browser's viewer. */

export interface CloudFacts {
  pointCount: number
  min: [number, number, number]
  max: [number, number, number]
  crs: string | null
  /** Points per square metre of the cloud's footprint (null when it has none). */
  densityPerM2: number | null
  copc: boolean
  /** A plain LAS/LAZ's viewing copy: how many of its points it holds. */
  thinned: { kept: number; total: number } | null
  /** The copy a view-only share link reads: at most half the points (absent in facts of older view jobs). */
  reduced?: { kept: number; total: number } | null
}

/** One thing the viewer draws, read by Range from `url`. */
export type ThreeDSource =
  | { type: 'copc'; fileId: number; fileName: string; url: string; facts: CloudFacts }
  | { type: 'las'; fileId: number; fileName: string; url: string; facts: CloudFacts }
  | { type: 'glb'; fileId: number; fileName: string; url: string }
  | { type: 'tiles'; fileId: null; fileName: string; url: string }

export const THREE_D_MESSAGES = {
  none: 'No 3D model or point cloud yet.',
  preparing: 'The 3D viewing copy is being prepared.',
  noStill:
    "No still image yet: it is made the first time the project's owner or an admin opens the 3D view with JavaScript.",
  stillSaved: 'Still image saved',
  stillRefused: 'The still image must be a PNG of at most 2 MB.',
  stillNotYours: "Only the project's owner or an admin leaves the 3D view's still image.",
  modelsWithheld:
    'A view-only link shows 3D models as a still image only; a link with downloads shows them in 3D.',
} as const

/** "preview — thinned to N of M points" (formatted by the caller). */
export function thinnedLabel(kept: string, total: string) {
  return `preview — thinned to ${kept} of ${total} points`
}

/** Point budgets offered in the viewer; a phone starts on the smallest. */
export const POINT_BUDGETS = [250_000, 500_000, 1_000_000, 2_000_000, 3_000_000] as const
export const PHONE_POINT_BUDGET = 500_000
export const DESKTOP_POINT_BUDGET = 2_000_000

/** A still image uploaded by the first browser: PNG or JPEG, at most this size. */
export const MAX_STILL_BYTES = 2 * 1024 * 1024
