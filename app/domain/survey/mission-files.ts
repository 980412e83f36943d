/**
 * The mission files a pilot flies with, as the job card and the survey page name them, and
 * which one fits a drone. Shared: the job card links every file, the offline job
 * pack keeps the one for the job's drone. The files themselves come from
 * `/api/projects/{id}/export/{format}` (export-formats.server.ts).
 */
import { djiWpmlDrone } from './dji-wpml-drones.ts'
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

/** The files a drone can be given: no DJI KMZ for a drone DJI Pilot 2 cannot fly; every file without a plan. */
export function missionFormatsFor(droneName: string | null): ExportFormat[] {
  if (droneName === null) return MISSION_FILE_FORMATS
  return MISSION_FILE_FORMATS.filter((f) => f !== 'kmz' || djiWpmlDrone(droneName) !== null)
}

/**
 * The file the job's drone flies from: DJI Pilot 2's WPML for the enterprise drones its
 * KMZ is written for (djiWpmlDrone: Mavic 3 Enterprise, Matrice 300/350 RTK with a P1); KML
 * for the Phantom 4 RTK and DJI's other enterprise drones (their apps import KML areas); Litchi for DJI's other drones (Phantom 4 Pro, Mavic, Mini, Air); QGroundControl
 * for everything else (PX4 and ArduPilot).
 */
export function missionFormatForDrone(droneName: string): ExportFormat {
  const name = droneName.slice(0, 200)
  if (djiWpmlDrone(name)) return 'kmz'
  // DJI's enterprise drones without a checked WPML declaration import a KML area (DJI Pilot 2, GS RTK).
  if (/phantom 4 rtk|matrice|\bm30t?\b|mavic 3 enterprise|\bm3[etm]\b/i.test(name)) return 'kml'
  if (/\bdji\b|phantom|mavic|\bmini\b|\bair\s?\d/i.test(name)) return 'litchi.csv'
  return 'plan'
}
