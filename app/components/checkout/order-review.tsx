/** The checkout's review of the order (ECTA s43(2)): the project, its areas and what the client gets. */
import type { SerializeFrom } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { cancellationSummary } from '#app/domain/payments/terms.ts'
import { projectTypeLabel } from '#app/domain/projects/project-schemas.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatHectares, formatKm, formatMetres, formatSquareMetres } from '#app/lib/format/numbers.ts'
import type { loader } from '#app/routes/checkout.$projectId.tsx'

type CheckoutData = SerializeFrom<typeof loader>

export function OrderReview({ data, certified }: { data: CheckoutData; certified: boolean }) {
  const { project, areas } = data
  return (
    <div className="space-y-6">
      <section className="card p-6" aria-labelledby="project-heading">
        <h2 id="project-heading" className="text-lg font-semibold text-ink-950">
          {project.name}
        </h2>
        <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <DetailRow layout="stacked" label="Project type">
            {projectTypeLabel(project.projectType)}
          </DetailRow>
          <DetailRow layout="stacked" label="Location">
            {project.location || '—'}
          </DetailRow>
          <DetailRow layout="stacked" label="Preferred deadline">
            {formatDate(project.deadline)}
          </DetailRow>
          <DetailRow layout="stacked" label="Nearest hub">
            {project.nearestHub
              ? `${project.nearestHub}${project.distanceFromHub != null ? ` (${formatKm(project.distanceFromHub)})` : ''}`
              : '—'}
          </DetailRow>
          {project.description ? (
            <DetailRow layout="stacked" label="Description" className="sm:col-span-2">
              {project.description}
            </DetailRow>
          ) : null}
        </dl>
      </section>

      <section className="card p-6" aria-labelledby="areas-heading">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="areas-heading" className="text-lg font-semibold text-ink-950">
            Survey areas
          </h2>
          <Link to={`/flight-planner?projectId=${project.id}`} className="btn-secondary btn-sm">
            Edit flight plan
          </Link>
        </div>
        {areas.length ? (
          <table className="mt-4 w-full text-sm">
            <thead>
              <tr className="border-b border-ink-100 text-left text-ink-500">
                <th className="py-2 pr-4 font-medium">Area</th>
                <th className="py-2 pr-4 font-medium">Size</th>
                <th className="py-2 text-right font-medium">Points</th>
              </tr>
            </thead>
            <tbody>
              {areas.map((a) => (
                <tr key={a.number} className="border-b border-ink-50">
                  <td className="whitespace-nowrap py-2 pr-4">Area {a.number}</td>
                  <td className="py-2 pr-4">
                    {formatHectares(a.areaSqm)}{' '}
                    <span className="text-ink-500">({formatSquareMetres(a.areaSqm)})</span>
                  </td>
                  <td className="py-2 text-right">{a.points}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td className="pt-2 pr-4 font-semibold">Total</td>
                <td className="pt-2 font-semibold" colSpan={2}>
                  {formatHectares(project.areaSqm ?? 0)}
                </td>
              </tr>
            </tfoot>
          </table>
        ) : (
          <p className="mt-3 text-sm text-ink-500">
            Flight plan data available but could not be parsed for display
          </p>
        )}
      </section>

      <section className="card p-6" aria-labelledby="service-heading">
        <h2 id="service-heading" className="text-lg font-semibold text-ink-950">
          What you get
        </h2>
        <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-ink-700">
          <li>
            A drone survey flight over {formatHectares(project.areaSqm ?? 0)}
            {project.flightHeightM != null ? ` at ${formatMetres(project.flightHeightM)} above ground` : ''},
            flown by our partner operator{certified ? ', a SACAA-certified operator' : ''}.
          </li>
          <li>
            Deliverables: a high-resolution orthomosaic map (GeoTIFF), a digital surface model and a PDF
            survey report.
          </li>
          <li>
            Delivery: flight within 8 to 12 business days after payment; deliverables 5 to 7 business days
            after the flight.
          </li>
          <li>Your data can be downloaded from your dashboard for 1 month after delivery.</li>
        </ul>
        <h3 className="mt-5 font-semibold text-ink-950">Cancellation</h3>
        <p className="mt-1 text-sm text-ink-700">
          {cancellationSummary(data.terms)}{' '}
          <Link to="/legal#cancellation" className="link">
            Company and legal information
          </Link>
        </p>
      </section>
    </div>
  )
}
