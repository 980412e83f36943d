/**
 * The mission files a pilot flies with, as the job card and the survey page name them, and
 * which one fits a drone (ADR 256). Shared: the job card links every file, the offline job
 * pack keeps the one for the job's drone. The files themselves come from
 * `/api/projects/{id}/export/{format}` (export-formats.server.ts).
 */
import type { ExportFormat } from './export-formats.server.ts'

/** Every export format with the app that loads it (the record keeps it in step with EXPORT_FORMATS). */
export const MISSION_FILE_LABELS: Record<ExportFormat, string> = {
  plan: 'QGroundControl (.plan)',
  kmz: 'DJI Pilot 2 (.kmz)',
  'litchi.csv': 'Litchi (.csv)',
  kml: 'KML',
  geojson: 'GeoJSON',
}

export const MISSION_FILE_FORMATS = Object.keys(MISSION_FILE_LABELS) as ExportFormat[]

export function missionFileUrl(projectId: number, format: ExportFormat) {
  return `/api/projects/${projectId}/export/${format}`
}

/**
 * The file the job's drone flies from: DJI Pilot 2's WPML for the enterprise drones it
 * flies (Matrice, Mavic 3 Enterprise, M30); KML for the Phantom 4 RTK (its GS RTK app imports
 * KML areas); Litchi for DJI's other drones (Phantom 4 Pro, Mavic, Mini, Air); QGroundControl
 * for everything else (PX4 and ArduPilot).
 */
export function missionFormatForDrone(droneName: string): ExportFormat {
  const name = droneName.slice(0, 200)
  if (/matrice|mavic 3 enterprise|\bm3[etm]\b|\bm30t?\b/i.test(name)) return 'kmz'
  if (/phantom 4 rtk/i.test(name)) return 'kml'
  if (/\bdji\b|phantom|mavic|\bmini\b|\bair\s?\d/i.test(name)) return 'litchi.csv'
  return 'plan'
}
