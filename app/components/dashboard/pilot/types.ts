import type { SerializeFrom } from '@remix-run/node'
import type { ListedFile } from '#app/components/files/file-groups.tsx'
import type { listFlightLogs, PilotProject } from '#app/domain/pilot/pilot-projects.server.ts'
import type { ExportFormat } from '#app/domain/survey/export-formats.server.ts'

/** An assigned project as the dashboard receives it (dates as strings). */
export type PilotJob = SerializeFrom<PilotProject>
export type FlightLogRow = SerializeFrom<ReturnType<typeof listFlightLogs>[number]>
/** The drone a job is planned for and the mission file it flies from. */
export interface JobMission {
  droneName: string
  format: ExportFormat
}
/** The job opened by `?project=`: what the dialog shows beyond the card. */
export interface OpenJob {
  id: number
  files: ListedFile[]
  mission: JobMission | null
}
