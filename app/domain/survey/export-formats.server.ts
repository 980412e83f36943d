/**
 * Mission files a pilot can load (ADR 083): QGroundControl `.plan`, DJI WPML `.kmz`
 * (wpmz/template.kml + wpmz/waylines.wpml), KML, GeoJSON and Litchi CSV, one module each
 * (export-qgc-plan, export-dji-kmz, export-kml, export-geojson, export-litchi-csv). Each
 * writer takes the project's mission and returns the bytes with their file name and type.
 */
import { djiKmz } from './export-dji-kmz.server.ts'
import { geojsonFile } from './export-geojson.server.ts'
import { kmlFile } from './export-kml.server.ts'
import { litchiCsv } from './export-litchi-csv.server.ts'
import { qgcPlan } from './export-qgc-plan.server.ts'
import type { ExportFile } from './export-shared.server.ts'
import type { Mission } from './mission.server.ts'

export const EXPORT_FORMATS = ['plan', 'kmz', 'kml', 'geojson', 'litchi.csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
/** What the owning client may download; pilots and admins get every format. */
export const CLIENT_EXPORT_FORMATS: readonly ExportFormat[] = ['kml', 'geojson']

export function exportMission(mission: Mission, format: ExportFormat): ExportFile {
  switch (format) {
    case 'plan':
      return qgcPlan(mission)
    case 'kmz':
      return djiKmz(mission)
    case 'kml':
      return kmlFile(mission)
    case 'geojson':
      return geojsonFile(mission)
    case 'litchi.csv':
      return litchiCsv(mission)
  }
}
