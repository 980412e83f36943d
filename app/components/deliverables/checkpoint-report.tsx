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

const COLUMNS = ['Checkpoint', 'Surveyed', 'Model', 'dz', 'Horizontal'] as const

/** One checkpoint as a table row (keyed by its place: ids may repeat). */
function pointRow(point: SerializeFrom<CheckpointReport>['points'][number], index: number) {
  const row = checkpointRow(point)
  const cells = [row.id, row.surveyed, row.model, row.dz, row.horizontal]
  return (
    <tr key={index}>
      {cells.map((cell, k) => (
        <td key={COLUMNS[k]} className="break-all py-1 pr-3">
          {cell}
        </td>
      ))}
    </tr>
  )
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
                {COLUMNS.map((c) => (
                  <th key={c} className="py-1 pr-3 font-medium">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-100">{report.points.map(pointRow)}</tbody>
          </table>
        </div>
      </details>
    </div>
  )
}
