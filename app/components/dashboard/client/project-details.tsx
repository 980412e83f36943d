/** The body of the View Details dialog: the project and its parsed flight plan. */
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import type { ProjectCard } from '#app/domain/dashboard/project-card.server.ts'
import { PARSE_FAILURE_MESSAGE, SCREENSHOT_UNAVAILABLE_MESSAGE } from '#app/domain/flight-plan/flight-plan.ts'
import { repeatDiscountLabel } from '#app/domain/pricing/vat.ts'
import { projectTypeLabel } from '#app/domain/projects/project-schemas.ts'
import { statusLabel } from '#app/domain/projects/status.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatHectares, formatRand, formatSquareMetres } from '#app/lib/format/numbers.ts'

/** Coordinates keep the decimal point, as they are typed and pasted. */
const coordinate = (degrees: number) => degrees.toFixed(6)

export function ProjectDetails({ project }: { project: ProjectCard }) {
  const plan = project.flightPlan
  return (
    <div className="space-y-5">
      <dl className="divide-y divide-ink-100">
        <DetailRow label="Status">
          <span className="inline-flex flex-wrap items-center gap-2">
            <StatusBadge status={project.status} />
            <span>{statusLabel(project)}</span>
          </span>
        </DetailRow>
        <DetailRow label="Project type">{projectTypeLabel(project.projectType)}</DetailRow>
        <DetailRow label="Location">{project.location ?? '—'}</DetailRow>
        {project.latitude !== null && project.longitude !== null ? (
          <DetailRow label="Coordinates">
            <span data-format="coordinates">{`${coordinate(project.latitude)}, ${coordinate(project.longitude)}`}</span>
          </DetailRow>
        ) : null}
        <DetailRow label="Deadline">{formatDate(project.deadline)}</DetailRow>
        {project.description ? <DetailRow label="Description">{project.description}</DetailRow> : null}
        {project.requirements ? (
          <DetailRow label="Special requirements">{project.requirements}</DetailRow>
        ) : null}
        {project.repeatDiscount > 0 ? (
          <DetailRow label={repeatDiscountLabel(project.repeatDiscountPercent)}>
            {formatRand(-project.repeatDiscount)} <span className="text-ink-500">(excl. VAT)</span>
          </DetailRow>
        ) : null}
        {project.quoteAmount ? (
          <DetailRow label="Quote (incl. VAT)">{formatRand(project.quoteAmount)}</DetailRow>
        ) : null}
        {project.statusMessage ? <DetailRow label="Message">{project.statusMessage}</DetailRow> : null}
        <DetailRow label="Created">{formatDate(project.createdAt)}</DetailRow>
      </dl>

      <section aria-labelledby={`plan-${project.id}`}>
        <h3 id={`plan-${project.id}`} className="text-sm font-semibold uppercase tracking-wide text-ink-500">
          Flight plan
        </h3>
        {!project.hasFlightPlanData ? (
          <p className="mt-2 text-sm text-ink-600">
            No flight plan yet. Use ‘Complete Flight Plan’ to draw the survey areas.
          </p>
        ) : !plan ? (
          <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
            {PARSE_FAILURE_MESSAGE}
          </p>
        ) : (
          <div className="mt-2 space-y-3">
            <div className="grid gap-3 sm:grid-cols-3">
              <Figure
                label="Total area"
                value={formatSquareMetres(plan.totalArea)}
                hint={formatHectares(plan.totalArea)}
              />
              <Figure label="Survey areas" value={String(plan.areas.length)} />
              <Figure label="Airspace" value={plan.airspaceZone ?? 'Clear airspace'} />
            </div>
            {plan.recommendedFlightHeight || plan.windConditions ? (
              <p className="text-sm text-ink-600">
                Recommended flight height {plan.recommendedFlightHeight ?? '—'};{' '}
                {plan.windConditions?.toLowerCase() ?? ''}.
                {plan.equipment ? ` Equipment: ${plan.equipment}.` : ''}
              </p>
            ) : null}
            <ol className="space-y-2">
              {plan.areas.map((area) => (
                <li key={area.areaNumber} className="rounded-lg border border-ink-100 p-3">
                  <details>
                    <summary className="cursor-pointer text-sm font-medium text-ink-900">
                      Area {area.areaNumber}: {formatSquareMetres(area.area)} ({formatHectares(area.area)}),{' '}
                      {area.points.length} boundary points
                    </summary>
                    {area.flightPattern ? (
                      <p className="mt-2 text-xs text-ink-600">Pattern: {area.flightPattern}</p>
                    ) : null}
                    {area.returnToBase ? (
                      <p className="text-xs text-ink-600">Return to base: {area.returnToBase}</p>
                    ) : null}
                    <table className="mt-2 w-full text-left text-xs">
                      <thead className="text-ink-500">
                        <tr>
                          <th className="py-1 pr-2 font-medium">Point</th>
                          <th className="py-1 pr-2 font-medium">Latitude</th>
                          <th className="py-1 font-medium">Longitude</th>
                        </tr>
                      </thead>
                      <tbody className="font-mono text-ink-800">
                        {area.points.map((p) => (
                          <tr key={p.pointNumber}>
                            <td className="py-0.5 pr-2">{p.pointNumber}</td>
                            <td className="py-0.5 pr-2" data-format="coordinates">
                              {coordinate(p.latitude)}
                            </td>
                            <td className="py-0.5" data-format="coordinates">
                              {coordinate(p.longitude)}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </details>
                </li>
              ))}
            </ol>
            {plan.hasScreenshot ? (
              <figure>
                <img
                  src={`/api/client/projects/${project.id}/screenshot`}
                  alt={`Satellite view of the survey areas of ${project.name}`}
                  className="w-full rounded-lg border border-ink-100"
                  loading="lazy"
                />
                <figcaption className="mt-1 text-xs text-ink-500">
                  <a
                    className="link"
                    href={`/api/client/projects/${project.id}/screenshot?download`}
                    download
                  >
                    Download the flight area screenshot
                  </a>
                </figcaption>
              </figure>
            ) : (
              <p className="text-sm text-ink-500">{SCREENSHOT_UNAVAILABLE_MESSAGE}</p>
            )}
          </div>
        )}
      </section>
    </div>
  )
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-lg bg-ink-50 px-3 py-2">
      <p className="text-xs text-ink-500">{label}</p>
      <p className="text-sm font-semibold text-ink-900">{value}</p>
      {hint ? <p className="text-xs text-ink-500">{hint}</p> : null}
    </div>
  )
}
