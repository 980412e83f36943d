/**
 * What a volume report carries beside its polygons' own volumes: the model's cut/fill to a chosen
 * design surface inside each polygon and, on a page of its own, over the design's whole outline
 * (measured by the cut/fill service as `POST …/cut-fill` is), and the model's checkpoint report
 * (count, RMSEs, ASPRS class, warning).
 */
import { checkpointFigures } from '#app/domain/deliverables/checkpoint-figures.ts'
import type { Deliverable } from '#app/domain/deliverables/deliverable.ts'
import { cutFillOrReason, measureCutFill, type CutFillFigures } from '#app/domain/design/cut-fill.server.ts'
import { requireDesignSurface } from '#app/domain/design/design-surfaces.server.ts'
import type { DbOrTx } from '#app/lib/db/db.server.ts'
import { formatCubicMetres, formatSquareMetres } from '#app/lib/format/numbers.ts'
import {
  A4,
  drawLabelledRows,
  PDF_COLOURS,
  wrap,
  type createA4Document,
} from '#app/lib/pdf/a4-document.server.ts'
import type { User } from '#db/schema.ts'
import { rgb } from 'pdf-lib'

export type DesignCutFill = { name: string; figures: CutFillFigures }

/** The model against one design surface of the project (404 for another's), as the cut/fill API measures it. */
export async function designCutFill(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  fileId: number,
  designSurfaceId: number,
  signal: AbortSignal | undefined,
  db: DbOrTx,
): Promise<DesignCutFill> {
  const { design } = requireDesignSurface(user, projectId, designSurfaceId, db)
  const figures = await measureCutFill(user, projectId, fileId, { designSurfaceId }, { signal }, db)
  return { name: design.name, figures }
}

/** The model's cut/fill to the design inside one polygon, as `POST …/cut-fill` with that ring measures it. */
export async function toDesignInside(
  user: Pick<User, 'id' | 'role'>,
  projectId: number,
  fileId: number,
  input: { designSurfaceId: number; ring: [number, number][] },
  signal: AbortSignal | undefined,
  db: DbOrTx,
) {
  return cutFillOrReason(signal, () => measureCutFill(user, projectId, fileId, input, { signal }, db))
}

/** A polygon's rows of cut/fill to the design: the figures, or the one line saying why there are none. */
export function designRows(toDesign: CutFillFigures | string | null): [string, string][] {
  if (toDesign === null) return []
  if (typeof toDesign === 'string') return [['To the design', toDesign]]
  return [
    ['Cut to the design', formatCubicMetres(toDesign.cutM3)],
    ['Fill to the design', formatCubicMetres(toDesign.fillM3)],
    ['Net to the design', formatCubicMetres(toDesign.netM3)],
    ['Area compared', formatSquareMetres(toDesign.areaM2)],
  ]
}

type Document = Awaited<ReturnType<typeof createA4Document>>

const LEFT = 50
const RIGHT = 545

/** The page of the design's cut/fill and the checkpoints, when the report has either. */
export function drawReportExtras(
  doc: Document,
  report: { projectName: string; model: Deliverable; design: DesignCutFill | null },
) {
  const checkpoints = report.model.checkpoints
  if (!report.design && !checkpoints) return
  const { pdf, text, bold } = doc
  const page = pdf.addPage([A4.width, A4.height])
  page.drawRectangle({ x: 0, y: 812, width: A4.width, height: 30, color: PDF_COLOURS.ink })
  text(page, 'KESTREL AERIAL SURVEY', LEFT, 823, { font: bold, size: 11, color: rgb(0.99, 0.72, 0.3) })
  text(page, 'Design and accuracy', LEFT, 776, { font: bold, size: 20 })
  text(page, `${report.projectName}: ${report.model.fileName}`, LEFT, 756, { font: bold, size: 12 })
  let y = 730
  const section = (title: string, rows: [string, string][], note: string | null) => {
    text(page, title, LEFT, y, { font: bold, size: 11 })
    y = drawLabelledRows(page, doc, rows, {
      x: LEFT,
      valueX: LEFT + 160,
      right: RIGHT,
      y: y - 18,
      strong: ['Net'],
    })
    for (const line of note ? wrap(note, doc.regular, 8, RIGHT - LEFT) : []) {
      text(page, line, LEFT, y, { size: 8, color: PDF_COLOURS.muted })
      y -= 10
    }
    y -= 14
  }
  if (report.design) {
    const f = report.design.figures
    section(
      'Cut/fill to the design',
      [
        ['Design surface', report.design.name],
        ['Area', formatSquareMetres(f.areaM2)],
        ['Cut', formatCubicMetres(f.cutM3)],
        ['Fill', formatCubicMetres(f.fillM3)],
        ['Net', formatCubicMetres(f.netM3)],
      ],
      "Over the design's outline: the design is resampled onto the model's grid; where the model is above the design it is cut, below it is fill, over the cells where both have a height. Net = cut - fill.",
    )
  }
  if (checkpoints) {
    section(
      'Checkpoints',
      [['Checkpoint CRS', checkpoints.crs], ...checkpointFigures(checkpoints)],
      checkpoints.warning,
    )
  }
}
