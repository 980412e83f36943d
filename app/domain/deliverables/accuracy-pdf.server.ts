/**
 * The one-page accuracy report (PDF) of an elevation model with a checkpoint report: project,
 * deliverable, CRS, the accuracy statement and GSD already kept, the checkpoint figures (RMSEs,
 * mean error, ASPRS class, warning) and the checkpoints' table, cut with "and N more" so it stays
 * on one page. Whoever may read the deliverable may read it (a share link through its own route).
 */
import { formatDate } from '#app/lib/format/dates.ts'
import { formatNumber, plural } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { createA4Document, drawLabelledRows, PDF_COLOURS, wrap } from '#app/lib/pdf/a4-document.server.ts'
import type { Project } from '#db/schema.ts'
import { rgb } from 'pdf-lib'

import { checkpointFigures, checkpointRow } from './checkpoint-figures.ts'
import { accuracyText, statedGsdCm, type Deliverable } from './deliverable.ts'

const NO_REPORT = 'This elevation model has no checkpoint report.'
/** Table rows that fit under the figures on one A4 page (the last may be "and N more"). */
const MAX_TABLE_ROWS = 36

const { ink: INK, muted: MUTED, amber: AMBER } = PDF_COLOURS
const LEFT = 50
const RIGHT = 545
/** The table's columns and where each starts on the page (points). */
const COLUMNS = ['Checkpoint', 'Easting', 'Northing', 'Surveyed', 'Model', 'dz', 'Horizontal'] as const
const COLUMN_X = [LEFT, 150, 225, 310, 375, 440, 490] as const

/** The PDF of a deliverable's checkpoint report (404 without one) and its file name. */
export async function accuracyReportPdf(project: Pick<Project, 'id' | 'name'>, model: Deliverable) {
  const report = model.checkpoints
  if (!report) throw new DomainError(404, NO_REPORT)
  const { pdf, page, regular, bold, text } = await createA4Document({
    title: `Accuracy report: ${project.name}`,
    author: 'Kestrel Aerial Survey',
    subject: `Checkpoints on ${model.fileName}`,
    createdAt: new Date(),
  })
  page.drawRectangle({ x: 0, y: 812, width: 595.28, height: 30, color: INK })
  text(page, 'KESTREL AERIAL SURVEY', LEFT, 823, { font: bold, size: 11, color: rgb(0.99, 0.72, 0.3) })
  text(page, 'Accuracy report', LEFT, 776, { font: bold, size: 20 })
  text(page, project.name, LEFT, 756, { font: bold, size: 12 })
  const gsd = statedGsdCm(model)
  const rows: [string, string][] = [
    ['Elevation model', model.fileName],
    ['Model CRS', model.raster?.epsg ? `EPSG:${model.raster.epsg}` : 'not stated'],
    ['Checkpoint CRS', report.crs],
    ['Checked', formatDate(new Date(report.checkedAt))],
    ['GSD', gsd !== null ? `${formatNumber(gsd, 1)} cm/px` : 'not stated'],
    ['Accuracy statement', accuracyText(model.accuracy)],
    ...(model.processing
      ? ([['Processed from', plural(model.processing.imagesCount, 'photo')]] as [string, string][])
      : []),
    ...checkpointFigures(report),
  ]
  let y = drawLabelledRows(page, { text, regular, bold }, rows, {
    x: LEFT,
    valueX: LEFT + 150,
    right: RIGHT,
    y: 734,
  })
  if (report.warning) {
    for (const line of wrap(report.warning, bold, 9.5, RIGHT - LEFT)) {
      text(page, line, LEFT, y, { font: bold, size: 9.5, color: rgb(0.7, 0.33, 0.02) })
      y -= 12
    }
  }
  y -= 6
  page.drawLine({ start: { x: LEFT, y: y + 4 }, end: { x: RIGHT, y: y + 4 }, thickness: 2, color: AMBER })
  y -= 10
  COLUMNS.forEach((label, i) => text(page, label, COLUMN_X[i], y, { font: bold, size: 8.5 }))
  const shown = report.points.length > MAX_TABLE_ROWS ? MAX_TABLE_ROWS - 1 : report.points.length
  for (const point of report.points.slice(0, shown)) {
    y -= 11.5
    const row = checkpointRow(point)
    // Coordinates are machine-facing: a decimal point, as typed.
    const cells = [
      row.id,
      point.easting.toFixed(3),
      point.northing.toFixed(3),
      row.surveyed,
      row.model,
      row.dz,
      row.horizontal,
    ]
    cells.forEach((cell, i) => text(page, cell, COLUMN_X[i]!, y, { size: 8.5 }))
  }
  const more = report.points.length - shown
  if (more) {
    y -= 11.5
    text(page, `and ${formatNumber(more)} more`, LEFT, y, { size: 8.5, color: MUTED })
  }
  const method =
    'dz = model - surveyed, the model read bilinearly at each checkpoint in its own grid; the vertical RMSE and mean error are over the checkpoints on the model. The class is the finest ASPRS Positional Accuracy Standards (edition 2, 2024) vertical class the RMSE meets; ASPRS asks for at least 30 checkpoints.'
  let footer = 70
  for (const line of wrap(method, regular, 8, RIGHT - LEFT)) {
    text(page, line, LEFT, footer, { size: 8, color: MUTED })
    footer -= 10
  }
  return { bytes: await pdf.save(), fileName: `accuracy-report-${project.id}-${model.id}.pdf` }
}
