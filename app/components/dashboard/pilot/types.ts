import type { SerializeFrom } from '@remix-run/node'
import type { listFlightLogs, PilotProject } from '#app/domain/pilot/pilot-projects.server.ts'

/** An assigned project as the dashboard receives it (dates as strings). */
export type PilotJob = SerializeFrom<PilotProject>
export type FlightLogRow = SerializeFrom<ReturnType<typeof listFlightLogs>[number]>
