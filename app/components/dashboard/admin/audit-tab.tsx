import { TableCard } from '#app/components/ui/section-header.tsx'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'

import type { TabData } from './types.ts'
import { DataTable, Pagination, td } from './ui.tsx'

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/

/** A record's values as a person reads them: dates and figures in the one format. */
function readableValue(_key: string, value: unknown) {
  if (typeof value === 'string' && value.length <= 30 && TIMESTAMP.test(value))
    return formatDate(value, { short: true, withTime: value.length > 10 })
  if (typeof value === 'number' && !Number.isInteger(value)) return formatNumber(value, 6, { minDecimals: 0 })
  return value
}

function Snapshot({ label, json }: { label: string; json: string | null }) {
  if (!json) return null
  let pretty = json
  try {
    pretty = JSON.stringify(JSON.parse(json), readableValue, 1)
  } catch {
    // keep the raw text
  }
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-ink-600">{label}</summary>
      <pre className="mt-1 max-h-48 max-w-md overflow-auto whitespace-pre-wrap break-all rounded bg-ink-50 p-2 font-mono text-[11px] text-ink-700">
        {pretty}
      </pre>
    </details>
  )
}

export function AuditTab({ data }: { data: TabData<'audit'> }) {
  const { audit } = data
  return (
    <TableCard
      title="Audit log"
      description={`Every change made in the admin console · ${audit.total} entries`}
    >
      <DataTable
        columns={['When', 'Who', 'What', 'Record', 'Before / after']}
        isEmpty={audit.entries.length === 0}
        empty="No admin changes recorded yet."
      >
        {audit.entries.map((e) => (
          <tr key={e.id}>
            <td className={`${td} whitespace-nowrap`}>
              {formatDate(e.createdAt, { short: true, withTime: true })}
            </td>
            <td className={td}>{e.actorId == null ? 'System' : (e.actorEmail ?? 'Deleted user')}</td>
            <td className={`${td} font-mono text-xs`}>{e.action}</td>
            <td className={`${td} whitespace-nowrap text-xs`}>
              {e.entityType}
              {e.entityId ? ` #${e.entityId}` : ''}
            </td>
            <td className={`${td} space-y-1`}>
              <Snapshot label="Before" json={e.before} />
              <Snapshot label="After" json={e.after} />
            </td>
          </tr>
        ))}
      </DataTable>
      <Pagination
        page={audit.page}
        pageCount={audit.pageCount}
        hrefFor={(p) => `/admin?tab=audit&page=${p}`}
        label="Audit log pages"
      />
    </TableCard>
  )
}
