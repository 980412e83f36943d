/** What every mission writer shares: the file it returns, its name, rounding and the flown waypoints. */
import type { MissionTransect } from './mission.server.ts'

export interface ExportFile {
  fileName: string
  contentType: string
  body: Uint8Array | string
}

/** A safe file name from the project name ("Paarl vineyard" → "paarl-vineyard"). */
export function fileStem(name: string) {
  const stem = name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 80)
  return stem || 'survey'
}

export const r7 = (n: number) => Math.round(n * 1e7) / 1e7
export const r2 = (n: number) => Math.round(n * 100) / 100

export function xml(text: string) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** The flown waypoints in order: for each transect its turnaround start, entry, exit, turnaround end. */
export function waypoints(transects: MissionTransect[]) {
  return transects.flatMap((t) => [
    { point: t.turnStart, heading: t.headingDeg, transect: t },
    { point: t.start, heading: t.headingDeg, transect: t },
    { point: t.end, heading: t.headingDeg, transect: t },
    { point: t.turnEnd, heading: t.headingDeg, transect: t },
  ])
}
