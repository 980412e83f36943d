import { Link } from '@remix-run/react'

import type { TabData } from './types.ts'
import { ActiveToggle, DataTable, RowActions, SectionHeader, td } from './ui.tsx'

/** Settings tab: the drones and cameras survey plans are computed for (ADR 081). */
export function DroneProfilesSection({ drones }: { drones: TabData<'settings'>['drones'] }) {
  return (
    <div className="card overflow-hidden">
      <div className="p-4 sm:p-5">
        <SectionHeader
          title="Drone profiles"
          description="Cameras and batteries the survey planner uses for the grid, photo count and flight time."
          actions={
            <Link to="/admin/drones/new" preventScrollReset className="btn-primary">
              Add Drone
            </Link>
          }
        />
      </div>
      <DataTable
        columns={['Drone', 'Camera', 'Flight', 'Active', 'Actions']}
        isEmpty={drones.length === 0}
        empty="No drone profiles. Survey plans use a bare camera until one exists."
      >
        {drones.map((d) => (
          <tr key={d.id} data-testid={`drone-row-${d.name}`}>
            <td className={`${td} font-medium text-ink-950`}>{d.name}</td>
            <td className={`${td} text-xs`}>
              {d.sensorWidthMm} × {d.sensorHeightMm} mm, f {d.focalLengthMm} mm, {d.imageWidthPx} ×{' '}
              {d.imageHeightPx} px, every ≥ {d.minTriggerIntervalS} s
            </td>
            <td className={`${td} text-xs`}>
              {d.speedMs} m/s, {d.flightTimePerBatteryMin} min × {Math.round(d.usableBatteryShare * 100)} %
            </td>
            <td className={td}>
              <ActiveToggle
                intent="admin-drone-active"
                id={d.id}
                isActive={d.isActive}
                label={d.name}
                returnTo="/admin?tab=settings"
              />
            </td>
            <td className={td}>
              <RowActions
                editTo={`/admin/drones/${d.id}`}
                deleteTo={`/admin/drones/${d.id}/delete`}
                label={d.name}
              />
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  )
}
