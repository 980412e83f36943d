/** Flight Logs: the pilot's projects with uploaded media, hours and counts. */
import { Link } from '@remix-run/react'
import { CardListSection } from '#app/components/ui/section-header.tsx'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import { formatFlightHours } from '#app/domain/pilot/schemas.ts'
import { formatDate } from '#app/lib/format/dates.ts'

import type { FlightLogRow } from './types.ts'

export function FlightLogsTab({ logs }: { logs: FlightLogRow[] }) {
  return (
    <CardListSection
      id="pilot-logs-heading"
      title="Flight Logs"
      description="Projects with uploaded media, with the flight time you logged."
      isEmpty={logs.length === 0}
      empty="No flights with uploaded media yet. Upload the photos and videos of a job from its details."
    >
      <ul className="grid gap-3" data-testid="flight-log-list">
        {logs.map((log) => (
          <li key={log.projectId} className="card grid gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-center">
            <div className="min-w-0">
              <div className="flex items-center gap-2">
                <h3 className="truncate font-semibold text-ink-950">{log.projectName}</h3>
                <StatusBadge status={log.status} />
              </div>
              <p className="truncate text-sm text-ink-600">{log.location ?? '—'}</p>
            </div>
            <dl className="grid grid-cols-4 gap-3 text-center text-sm">
              <div>
                <dt className="text-xs text-ink-500">Hours</dt>
                <dd className="font-semibold">{formatFlightHours(log.flightHours)}</dd>
              </div>
              <div>
                <dt className="text-xs text-ink-500">Images</dt>
                <dd className="font-semibold">{log.imageCount}</dd>
              </div>
              <div>
                <dt className="text-xs text-ink-500">Videos</dt>
                <dd className="font-semibold">{log.videoCount}</dd>
              </div>
              <div>
                <dt className="text-xs text-ink-500">Last flight</dt>
                <dd className="font-semibold">{log.lastFlightAt ? formatDate(log.lastFlightAt) : '—'}</dd>
              </div>
            </dl>
            <Link to={`/dashboard?project=${log.projectId}`} className="link text-sm sm:col-span-2">
              Open the job
            </Link>
          </li>
        ))}
      </ul>
    </CardListSection>
  )
}
