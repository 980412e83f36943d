/**
 * The accuracy statement ODM's report states, read from its `odm_report/stats.json`
 * (OpenSfM's statistics plus ODM's own): `gcp_errors.details[]` (each point's id, its role
 * `gcp` or `checkpoint`, its error {x, y, z} in metres), `gcp_errors.error` (the RMS per
 * axis over all of them) and `odm_processing_statistics.average_gsd` (cm). Without ground
 * control there is no statement (null): GPS-only residuals say nothing of absolute accuracy.
 */
import type { DeliverableAccuracy } from '#db/schema.ts'

type Xyz = { x: number; y: number; z: number }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function xyzOf(value: unknown): Xyz | null {
  if (!isObject(value)) return null
  const { x, y, z } = value
  return [x, y, z].every((n) => typeof n === 'number' && Number.isFinite(n)) ? ({ x, y, z } as Xyz) : null
}

const rms = (values: number[]) => Math.sqrt(values.reduce((s, v) => s + v * v, 0) / values.length)

/** Within what a statement may say (the admin's form has the same bounds). */
const plausibleRmse = (m: number) => Number.isFinite(m) && m > 0 && m <= 100

/** At most this many points are read (a report names tens, not thousands). */
const MAX_POINTS = 10_000

export function accuracyFromOdmStats(stats: unknown): DeliverableAccuracy | null {
  if (!isObject(stats) || !isObject(stats.gcp_errors)) return null
  const details = Array.isArray(stats.gcp_errors.details) ? stats.gcp_errors.details.slice(0, MAX_POINTS) : []
  const points = details.filter(isObject).map((d) => ({
    checkpoint: typeof d.role === 'string' && /^check/i.test(d.role),
    error: xyzOf(d.error),
  }))
  if (!points.length) return null
  const checkpoints = points.filter((p) => p.checkpoint)
  // Check points measure what control points cannot (they were not fitted to); else the RMS over all.
  const measured = checkpoints.map((p) => p.error).filter((e): e is Xyz => e !== null)
  const overall = xyzOf(stats.gcp_errors.error)
  let horizontalRmseM: number
  let verticalRmseM: number
  if (measured.length) {
    horizontalRmseM = rms(measured.map((e) => Math.hypot(e.x, e.y)))
    verticalRmseM = rms(measured.map((e) => e.z))
  } else if (overall) {
    horizontalRmseM = Math.hypot(overall.x, overall.y)
    verticalRmseM = Math.abs(overall.z)
  } else return null
  if (!plausibleRmse(horizontalRmseM) || !plausibleRmse(verticalRmseM)) return null
  const odm = isObject(stats.odm_processing_statistics) ? stats.odm_processing_statistics : {}
  const gsd = odm.average_gsd
  return {
    horizontalRmseM,
    verticalRmseM,
    gcpCount: points.length - checkpoints.length,
    checkpointCount: checkpoints.length,
    gsdCm: typeof gsd === 'number' && Number.isFinite(gsd) && gsd > 0 ? gsd : null,
    source: 'odm',
  }
}
