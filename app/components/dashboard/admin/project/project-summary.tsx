/** The dialog's top: the project's details and its pricing breakdown with the airspace zone. */
import { formatDate, YesNoBadge } from '#app/components/dashboard/admin/ui.tsx'
import { formatHectares, formatKm, formatRand, formatSquareMetres } from '#app/domain/format/numbers.ts'
import { projectTypeLabel } from '#app/domain/projects/project-schemas.ts'
import type { ReactNode } from 'react'

import type { ProjectDialogData } from './types.ts'

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-ink-500">{label}</dt>
      <dd className="text-right font-medium text-ink-900">{children}</dd>
    </div>
  )
}

export function ProjectSummary({
  project,
  client,
  pilot,
}: Pick<ProjectDialogData, 'project' | 'client' | 'pilot'>) {
  return (
    <div className="grid gap-5 md:grid-cols-2">
      <section aria-labelledby="pd-details" className="rounded-xl border border-ink-100 p-4">
        <h3 id="pd-details" className="mb-2 text-sm font-semibold text-ink-950">
          Details
        </h3>
        <dl className="divide-y divide-ink-100">
          <Row label="Client">
            {client ? `${client.name}${client.companyName ? ` (${client.companyName})` : ''}` : '—'}
          </Row>
          <Row label="E-mail">{client?.email ?? '—'}</Row>
          <Row label="Site">{project.location ?? '—'}</Row>
          <Row label="Type">{projectTypeLabel(project.projectType)}</Row>
          <Row label="Deadline">{project.deadline ?? '—'}</Row>
          <Row label="Created">{formatDate(project.createdAt)}</Row>
          <Row label="Payment">
            <YesNoBadge yes={project.isPaid} yesLabel="Paid" noLabel="Pending" />
          </Row>
          <Row label="Land owner form">
            <YesNoBadge yes={project.landOwnerFormUploaded} yesLabel="Complete" noLabel="Required" />
          </Row>
          <Row label="Pilot">{pilot?.name ?? 'Unassigned'}</Row>
        </dl>
      </section>
      <section aria-labelledby="pd-pricing" className="rounded-xl border border-ink-100 p-4">
        <h3 id="pd-pricing" className="mb-2 text-sm font-semibold text-ink-950">
          Pricing breakdown
        </h3>
        <dl className="divide-y divide-ink-100 tabular-nums">
          <Row label="Area">
            {project.areaSqm
              ? `${formatSquareMetres(project.areaSqm)} (${formatHectares(project.areaSqm)})`
              : '—'}
          </Row>
          <Row label="Nearest hub">
            {project.nearestHub
              ? `${project.nearestHub}${project.distanceFromHub != null ? ` · ${formatKm(project.distanceFromHub)}` : ''}`
              : '—'}
          </Row>
          <Row label="Base price">{formatRand(project.basePrice)}</Row>
          <Row label="Area-adjusted price">{formatRand(project.adjustedPrice)}</Row>
          <Row label="Travel fee">{formatRand(project.travelFee)}</Row>
          <Row label="Aviation fee">{formatRand(project.aviationFee)}</Row>
          <Row label="Subtotal">{formatRand(project.subtotal)}</Row>
          <Row label="VAT">{formatRand(project.vatAmount)}</Row>
          <Row label="Total">{formatRand(project.quoteAmount)}</Row>
        </dl>
        <h3 className="mb-1 mt-4 text-sm font-semibold text-ink-950">Airspace zone</h3>
        <p className="flex items-center gap-2 text-sm text-ink-700">
          {project.airspaceZoneColor ? (
            <span
              aria-hidden="true"
              className="h-3 w-3 rounded-full"
              style={{ backgroundColor: project.airspaceZoneColor }}
            />
          ) : null}
          {project.airspaceZone ?? 'No controlled airspace'}
        </p>
      </section>
    </div>
  )
}
