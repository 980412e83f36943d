import { TableCard } from '#app/components/ui/section-header.tsx'
import { formatNumber, formatPercent } from '#app/lib/format/numbers.ts'

import type { TabData } from './types.ts'
import { ActiveToggle, CreateLink, DataTable, RowActions, td } from './ui.tsx'

/** A camera or flight figure with the decimals it was given ('12,29', '0,7', '35'). */
const decimal = (value: number) => formatNumber(value, 2, { minDecimals: 0 })

/** Settings tab: the drones and cameras survey plans are computed for. */
export function DroneProfilesSection({ drones }: { drones: TabData<'settings'>['drones'] }) {
  return (
    <TableCard
      title="Drone profiles"
      description="Cameras and batteries the survey planner uses for the grid, photo count and flight time."
      actions={<CreateLink to="/admin/drones/new">Add Drone</CreateLink>}
    >
      <DataTable
        columns={['Drone', 'Camera', 'Flight', 'Active', 'Actions']}
        isEmpty={drones.length === 0}
        empty="No drone profiles. Survey plans use a bare camera until one exists."
      >
        {drones.map((d) => (
          <tr key={d.id} data-testid={`drone-row-${d.name}`}>
            <td className={`${td} font-medium text-ink-950`} data-format="name">
              {d.name}
            </td>
            <td className={`${td} text-xs`}>
              {decimal(d.sensorWidthMm)} × {decimal(d.sensorHeightMm)} mm, f {decimal(d.focalLengthMm)} mm,{' '}
              {formatNumber(d.imageWidthPx)} × {formatNumber(d.imageHeightPx)} px, every ≥{' '}
              {decimal(d.minTriggerIntervalS)} s
            </td>
            <td className={`${td} text-xs`}>
              {decimal(d.speedMs)} m/s, {decimal(d.flightTimePerBatteryMin)} min ×{' '}
              {formatPercent(d.usableBatteryShare * 100)}
            </td>
            <td className={td}>
              <ActiveToggle intent="admin-drone-active" id={d.id} isActive={d.isActive} label={d.name} />
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
    </TableCard>
  )
}
