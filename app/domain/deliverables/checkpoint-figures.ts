/**
 * A checkpoint report's figures as label and value, the same on the admin's page, the Map view
 * and the PDFs (browser-safe): counts, RMSEs and mean error in centimetres, the ASPRS class.
 */
import { formatNumber, plural } from '#app/lib/format/numbers.ts'
import type { CheckpointReport, CheckpointResult } from '#db/schema.ts'

import { cm } from './deliverable.ts'

const NOT_MEASURED = 'not measured'

/** The report's summary rows: [label, value]. */
export function checkpointFigures(report: CheckpointReport): [string, string][] {
  const off = report.count - report.usedCount
  return [
    [
      'Checkpoints',
      `${plural(report.usedCount, 'checkpoint')} on the model${off ? ` (${off} off it, left out)` : ''}`,
    ],
    ['Vertical RMSE', report.verticalRmseM === null ? NOT_MEASURED : cm(report.verticalRmseM)],
    ['Mean error', report.meanErrorM === null ? NOT_MEASURED : cm(report.meanErrorM)],
    [
      'ASPRS 2024 vertical class',
      report.asprsVerticalClass ??
        (report.verticalRmseM === null ? NOT_MEASURED : 'coarser than every class'),
    ],
    [
      'Horizontal RMSE',
      report.horizontalRmseM === null
        ? NOT_MEASURED
        : `${cm(report.horizontalRmseM)} (${plural(report.horizontalCount, 'target')})`,
    ],
  ]
}

/** One checkpoint's row: id, surveyed and model heights, dz and the horizontal error ("—" for none). */
export function checkpointRow(point: CheckpointResult) {
  const metres = (value: number | null) => (value === null ? '—' : `${formatNumber(value, 3)} m`)
  return {
    id: point.id,
    surveyed: metres(point.elevationM),
    model: metres(point.modelElevationM),
    dz: point.dzM === null ? 'off the model' : cm(point.dzM),
    horizontal: point.horizontalErrorM === null ? '—' : cm(point.horizontalErrorM),
  }
}
