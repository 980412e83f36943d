import { Form, Link } from '@remix-run/react'
import { AirspaceLegend } from '#app/components/airspace/airspace-legend.tsx'
import { useToast } from '#app/components/layout/toaster.tsx'
import { SectionHeader, TableCard } from '#app/components/ui/section-header.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { AIRSPACE_ATTRIBUTION } from '#app/domain/airspace/zone-kinds.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatRand } from '#app/lib/format/numbers.ts'

import type { TabData } from './types.ts'
import { DataTable, td } from './ui.tsx'

export const CLEAR_ZONES_CONFIRM =
  'Are you sure you want to clear all airspace zones? This action cannot be undone.'
export const LOAD_RSA_CONFIRM =
  'Load real RSA airspace data? This will replace all current zones with authentic South African airspace boundaries.'

/** Leads to the action's confirmation dialog route, with and without JavaScript. */
function ConfirmedAction({ action, label, className }: { action: string; label: string; className: string }) {
  return (
    <Link to={action} preventScrollReset className={className}>
      {label}
    </Link>
  )
}

export function AirspaceTab({ data }: { data: TabData<'airspace'> }) {
  const toast = useToast()
  const uploading = useIsPending({ formAction: '/admin/airspace/upload' })
  return (
    <div className="space-y-6">
      <div className="card space-y-5 p-4 sm:p-6">
        <SectionHeader
          title="Airspace zones"
          description="Controlled, buffer and danger zones that add aviation fees to quotes. Changes apply to new quotes at once."
        />
        <div className="grid gap-4 lg:grid-cols-3">
          <Form
            method="post"
            action="/admin/airspace/upload"
            encType="multipart/form-data"
            preventScrollReset
            className="rounded-xl border border-dashed border-ink-200 bg-ink-50/50 p-4 lg:col-span-2"
            onSubmit={(event) => {
              const input = event.currentTarget.elements.namedItem('kmlFile') as HTMLInputElement | null
              const file = input?.files?.[0]
              if (!file || !/\.kml$/i.test(file.name)) {
                event.preventDefault()
                toast({ type: 'error', title: 'Invalid File Type', description: 'Please select a KML file' })
              }
            }}
          >
            <label htmlFor="kmlFile" className="label">
              Upload a KML file
            </label>
            <p id="kmlFile-hint" className="mb-3 text-xs text-ink-500">
              Each polygon placemark becomes a zone. Blue/green styles are controlled airspace (R850), yellow
              the OR Tambo buffer (R150), red danger areas (R0). Up to 5 MB.
            </p>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id="kmlFile"
                name="kmlFile"
                type="file"
                accept=".kml,application/vnd.google-earth.kml+xml"
                aria-describedby="kmlFile-hint"
                className="input file:mr-3 file:rounded-md file:border-0 file:bg-ink-900 file:px-3 file:py-1.5 file:text-xs file:font-semibold file:text-white"
              />
              <StatusButton pending={uploading} pendingLabel="Uploading…" className="whitespace-nowrap">
                Upload KML
              </StatusButton>
            </div>
          </Form>
          <div className="flex flex-col gap-2 rounded-xl border border-ink-100 p-4">
            <p className="text-sm font-medium text-ink-700">Bulk actions</p>
            <ConfirmedAction
              action="/admin/airspace/load-rsa"
              label="Load RSA airspace data"
              className="btn-dark w-full"
            />
            <ConfirmedAction
              action="/admin/airspace/clear"
              label="Clear all zones"
              className="btn-danger w-full"
            />
            <p className="text-xs text-ink-500">{AIRSPACE_ATTRIBUTION}</p>
          </div>
        </div>
      </div>

      <AirspaceLegend />

      <TableCard title="Active zones" description={`${data.total} zone${data.total === 1 ? '' : 's'}`}>
        <DataTable
          columns={['Name', 'Type', 'Fee', 'Colour', 'Uploaded']}
          isEmpty={data.zones.length === 0}
          empty="No airspace zones. Upload a KML file or load the RSA data."
          bodyTestId="zone-list"
        >
          {data.zones.map((z) => (
            <tr key={z.id}>
              <td className={`${td} font-medium text-ink-950`}>{z.zoneName}</td>
              <td className={td}>{z.zoneType}</td>
              <td className={`${td} tabular-nums`}>{formatRand(z.aviationFee)}</td>
              <td className={td}>
                <span className="inline-flex items-center gap-2">
                  <span
                    aria-hidden="true"
                    className="h-4 w-4 rounded border border-ink-200"
                    style={{ backgroundColor: z.color }}
                  />
                  <span className="font-mono text-xs">{z.color}</span>
                </span>
              </td>
              <td className={`${td} whitespace-nowrap`}>
                {formatDate(z.uploadedAt, { short: true, withTime: true })}
              </td>
            </tr>
          ))}
        </DataTable>
        {data.total > data.zones.length ? (
          <div className="border-t border-ink-100 p-3 text-center">
            <Link to="/admin?tab=airspace&zones=all" preventScrollReset className="btn-ghost btn-sm">
              Show more ({data.total - data.zones.length} more)
            </Link>
          </div>
        ) : data.showAll && data.total > 5 ? (
          <div className="border-t border-ink-100 p-3 text-center">
            <Link to="/admin?tab=airspace" preventScrollReset className="btn-ghost btn-sm">
              Show fewer
            </Link>
          </div>
        ) : null}
      </TableCard>
    </div>
  )
}
