import { Form, Link } from '@remix-run/react'
import { SectionHeader } from '#app/components/ui/section-header.tsx'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import { ADMIN_STATUS_OPTIONS, statusBadge, statusLabel } from '#app/domain/projects/status.ts'
import { formatRand } from '#app/lib/format/numbers.ts'

import type { TabData } from './types.ts'
import { DataTable, Pagination, td, YesNoBadge } from './ui.tsx'

const STATUS_FILTERS = [
  { value: '', label: 'All statuses' },
  { value: 'draft', label: statusBadge('draft').label },
  ...ADMIN_STATUS_OPTIONS,
]

/** The list's own query (search, status, page) as a query string, for links that keep it. */
export function projectListQuery(query: { q: string; status: string; page?: number }) {
  const params = new URLSearchParams()
  if (query.q) params.set('q', query.q)
  if (query.status) params.set('status', query.status)
  if (query.page && query.page > 1) params.set('page', String(query.page))
  return params.toString()
}

export function ProjectsTab({ data }: { data: TabData<'projects'> }) {
  const { list, query } = data
  const keep = projectListQuery({ ...query, page: list.page })
  const pageHref = (page: number) => `/admin?tab=projects&${projectListQuery({ ...query, page })}`
  return (
    <div className="space-y-6">
      {/* The total, pending and active counters are the dashboard's stat cards above the tabs. */}
      <div className="card overflow-hidden">
        <div className="space-y-4 p-4 sm:p-5">
          <SectionHeader
            title="All Projects"
            description={`${list.total} project${list.total === 1 ? '' : 's'}${query.q || query.status ? ' match' : ''}`}
          />
          <Form
            method="get"
            action="/admin"
            className="no-print flex flex-col gap-2 sm:flex-row"
            role="search"
          >
            <input type="hidden" name="tab" value="projects" />
            <label htmlFor="project-search" className="sr-only">
              Search projects
            </label>
            <input
              id="project-search"
              name="q"
              type="search"
              defaultValue={query.q}
              placeholder="Search by project, client, e-mail, place or #id"
              className="input sm:flex-1"
            />
            <label htmlFor="project-status" className="sr-only">
              Status
            </label>
            <select id="project-status" name="status" defaultValue={query.status} className="input sm:w-48">
              {STATUS_FILTERS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
            <button type="submit" className="btn-dark">
              Search
            </button>
          </Form>
        </div>
        <DataTable
          columns={[
            'Project',
            'Client',
            'Status',
            'Pilot',
            'Quote',
            'Payment',
            'Documents',
            'Media',
            { label: 'Actions', className: 'no-print' },
          ]}
          isEmpty={list.projects.length === 0}
          empty="No projects found."
        >
          {list.projects.map((p) => (
            <tr key={p.id} className="hover:bg-ink-50/50">
              <td className={td}>
                <p className="font-medium text-ink-950">{p.name}</p>
                <p className="text-xs text-ink-500">
                  #{p.id}
                  {p.location ? ` · ${p.location}` : ''}
                </p>
              </td>
              <td className={td}>
                <p>{p.clientName}</p>
                <p className="text-xs text-ink-500">{p.clientEmail}</p>
              </td>
              <td className={td}>
                <StatusBadge status={p.status} />
                {p.status === 'pending' ? (
                  <p className="mt-1 text-xs text-ink-500">{statusLabel(p)}</p>
                ) : null}
              </td>
              <td className={td}>{p.pilotName ?? <span className="text-ink-500">Unassigned</span>}</td>
              <td className={`${td} whitespace-nowrap tabular-nums`}>
                {p.quoteAmount ? formatRand(p.quoteAmount) : '—'}
              </td>
              <td className={td}>
                <YesNoBadge yes={p.isPaid} yesLabel="Paid" noLabel="Pending" />
              </td>
              <td className={td}>
                <YesNoBadge yes={p.landOwnerFormUploaded} yesLabel="Complete" noLabel="Required" />
              </td>
              <td className={`${td} whitespace-nowrap text-xs text-ink-600`}>
                {p.imageCount} image{p.imageCount === 1 ? '' : 's'}
                <br />
                {p.videoCount} video{p.videoCount === 1 ? '' : 's'}
              </td>
              <td className={`${td} no-print`}>
                <Link
                  to={`/admin/projects/${p.id}${keep ? `?${keep}` : ''}`}
                  preventScrollReset
                  className="btn-secondary btn-sm"
                  aria-label={`Edit ${p.name}`}
                >
                  Edit
                </Link>
              </td>
            </tr>
          ))}
        </DataTable>
        <Pagination page={list.page} pageCount={list.pageCount} hrefFor={pageHref} label="Project pages" />
      </div>
    </div>
  )
}
