/** The dialog's top: the project's details and its pricing breakdown with the airspace zone. */
import { YesNoBadge } from '#app/components/dashboard/admin/ui.tsx'
import { ColorDot } from '#app/components/ui/color-dot.tsx'
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { repeatDiscountLabel } from '#app/domain/pricing/vat.ts'
import { projectTypeLabel } from '#app/domain/projects/project-schemas.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatHectares, formatKm, formatRand, formatSquareMetres } from '#app/lib/format/numbers.ts'

import type { ProjectDialogData } from './types.ts'

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
          <DetailRow label="Client">
            {client ? `${client.name}${client.companyName ? ` (${client.companyName})` : ''}` : '—'}
          </DetailRow>
          <DetailRow label="E-mail">{client?.email ?? '—'}</DetailRow>
          <DetailRow label="Site">{project.location ?? '—'}</DetailRow>
          <DetailRow label="Type">{projectTypeLabel(project.projectType)}</DetailRow>
          <DetailRow label="Deadline">{formatDate(project.deadline)}</DetailRow>
          <DetailRow label="Created">{formatDate(project.createdAt)}</DetailRow>
          <DetailRow label="Payment">
            <YesNoBadge yes={project.isPaid} yesLabel="Paid" noLabel="Pending" />
          </DetailRow>
          <DetailRow label="Land owner form">
            <YesNoBadge yes={project.landOwnerFormUploaded} yesLabel="Complete" noLabel="Required" />
          </DetailRow>
          <DetailRow label="Pilot">{pilot?.name ?? 'Unassigned'}</DetailRow>
        </dl>
      </section>
      <section aria-labelledby="pd-pricing" className="rounded-xl border border-ink-100 p-4">
        <h3 id="pd-pricing" className="mb-2 text-sm font-semibold text-ink-950">
          Pricing breakdown
        </h3>
        <dl className="divide-y divide-ink-100 tabular-nums">
          <DetailRow label="Area">
            {project.areaSqm
              ? `${formatSquareMetres(project.areaSqm)} (${formatHectares(project.areaSqm)})`
              : '—'}
          </DetailRow>
          <DetailRow label="Nearest hub">
            {project.nearestHub
              ? `${project.nearestHub}${project.distanceFromHub != null ? ` · ${formatKm(project.distanceFromHub)}` : ''}`
              : '—'}
          </DetailRow>
          <DetailRow label="Base price">{formatRand(project.basePrice)}</DetailRow>
          <DetailRow label="Area-adjusted price">{formatRand(project.adjustedPrice)}</DetailRow>
          <DetailRow label="Travel fee">{formatRand(project.travelFee)}</DetailRow>
          <DetailRow label="Aviation fee">{formatRand(project.aviationFee)}</DetailRow>
          {project.repeatDiscount > 0 ? (
            <DetailRow label={repeatDiscountLabel(project.repeatDiscountPercent)}>
              {formatRand(-project.repeatDiscount)}
            </DetailRow>
          ) : null}
          <DetailRow label="Subtotal">{formatRand(project.subtotal)}</DetailRow>
          <DetailRow label="VAT">{formatRand(project.vatAmount)}</DetailRow>
          <DetailRow label="Total">{formatRand(project.quoteAmount)}</DetailRow>
        </dl>
        <h3 className="mb-1 mt-4 text-sm font-semibold text-ink-950">Airspace zone</h3>
        <p className="flex items-center gap-2 text-sm text-ink-700">
          {project.airspaceZoneColor ? <ColorDot color={project.airspaceZoneColor} /> : null}
          {project.airspaceZone ?? 'No controlled airspace'}
        </p>
      </section>
    </div>
  )
}
