import { Link } from '@remix-run/react'
import { TableCard } from '#app/components/ui/section-header.tsx'
import { fullName } from '#app/domain/users/person-name.ts'
import { formatNumber, formatPhone, plural } from '#app/lib/format/numbers.ts'

import type { TabData } from './types.ts'
import { ActiveToggle, CreateLink, DataTable, td } from './ui.tsx'

export function PilotsTab({ data }: { data: TabData<'pilots'> }) {
  return (
    <TableCard
      title="Pilots"
      description={`${plural(data.pilots.length, 'pilot')} · ${formatNumber(data.pilots.filter((p) => p.isActive).length)} active`}
      actions={<CreateLink to="/admin/pilots/new">Create Pilot</CreateLink>}
    >
      <DataTable
        columns={['Pilot', 'Contact', 'Service area', 'Drone types', 'Licence', 'Active', 'Actions']}
        isEmpty={data.pilots.length === 0}
        empty="No pilots yet. Create the first one."
      >
        {data.pilots.map((p) => (
          <tr key={p.id} data-testid={`pilot-row-${p.email}`}>
            <td className={td}>
              <p className="font-medium text-ink-950">{fullName(p)}</p>
              <p className="font-mono text-xs text-ink-500">{p.licenceDisplay}</p>
            </td>
            <td className={td}>
              <p className="whitespace-nowrap">{p.email}</p>
              {p.phone ? <p className="text-xs text-ink-500">{formatPhone(p.phone)}</p> : null}
            </td>
            <td className={td}>{p.serviceArea ?? '—'}</td>
            <td className={td}>
              <ul className="flex max-w-xs flex-wrap gap-1">
                {(p.droneTypes ?? '')
                  .split(',')
                  .map((d) => d.trim())
                  .filter(Boolean)
                  .map((d) => (
                    <li key={d} className="badge bg-ink-100 text-ink-700">
                      {d}
                    </li>
                  ))}
              </ul>
            </td>
            <td className={td}>
              <p className="whitespace-nowrap">{p.pilotLicenseNumber ?? '—'}</p>
              {p.pilotLicenseUrl ? (
                <a
                  href={p.pilotLicenseUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="link text-xs"
                >
                  View
                  <span className="sr-only"> licence of {fullName(p)} (opens in a new window)</span>
                </a>
              ) : null}
            </td>
            <td className={td}>
              <ActiveToggle intent="admin-pilot-active" id={p.id} isActive={p.isActive} label={fullName(p)} />
            </td>
            <td className={td}>
              <Link
                to={`/admin/pilots/${p.id}`}
                preventScrollReset
                className="btn-secondary btn-sm"
                aria-label={`Edit ${fullName(p)}`}
              >
                Edit
              </Link>
            </td>
          </tr>
        ))}
      </DataTable>
    </TableCard>
  )
}
