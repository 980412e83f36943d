/**
 * A checkpoint report as the admin's page and the Map view show it: the figures, the warning,
 * a link to the one-page PDF and each checkpoint's dz in a table (folded away when long).
 */
import type { SerializeFrom } from '@remix-run/node'
import { Alert } from '#app/components/ui/alert.tsx'
import { checkpointFigures, checkpointRow } from '#app/domain/deliverables/checkpoint-figures.ts'
import type { CheckpointReport } from '#db/schema.ts'

/** The one-page accuracy PDF of an elevation model with a checkpoint report. */
export function accuracyPdfUrl(projectId: number, fileId: number) {
  return `/api/projects/${projectId}/deliverables/${fileId}/accuracy.pdf`
}

export function CheckpointReportView({
  report,
  pdfUrl,
}: {
  report: SerializeFrom<CheckpointReport>
  /** The accuracy PDF's link, for whoever may read it. */
  pdfUrl?: string
}) {
  return (
    <div className="space-y-2 text-sm" data-testid="checkpoint-report">
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
        {checkpointFigures(report).map(([label, value]) => (
          <div key={label} className="flex flex-wrap gap-x-2">
            <dt className="text-ink-500">{label}</dt>
            <dd className="font-medium text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
      {report.warning ? <Alert tone="warning">{report.warning}</Alert> : null}
      {pdfUrl ? (
        <a href={pdfUrl} className="btn-secondary btn-sm" download>
          Accuracy report (PDF)
        </a>
      ) : null}
      <details open={report.points.length <= 10}>
        <summary className="cursor-pointer text-ink-700">Each checkpoint ({report.points.length})</summary>
        <div className="mt-1 overflow-x-auto">
          <table className="w-full text-left text-xs">
            <thead className="text-ink-500">
              <tr>
                <th className="py-1 pr-3 font-medium">Checkpoint</th>
                <th className="py-1 pr-3 font-medium">Surveyed</th>
                <th className="py-1 pr-3 font-medium">Model</th>
                <th className="py-1 pr-3 font-medium">dz</th>
                <th className="py-1 font-medium">Horizontal</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-100">
              {report.points.map((point, i) => {
                const row = checkpointRow(point)
                return (
                  <tr key={`${point.id}-${i}`}>
                    <td className="break-all py-1 pr-3">{row.id}</td>
                    <td className="py-1 pr-3">{row.surveyed}</td>
                    <td className="py-1 pr-3">{row.model}</td>
                    <td className="py-1 pr-3">{row.dz}</td>
                    <td className="py-1">{row.horizontal}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  )
}
