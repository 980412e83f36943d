/**
 * A project's stockpile inventory: every stockpile (or pit) note with its material, base, net
 * volume, density and tonnes (net volume × density), and totals per material, as CSV and as
 * an A4 PDF. Project members read it; others 404.
 */
import { surveyDateOf } from '#app/domain/files/survey-dates.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { csvText } from '#app/lib/format/csv.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import { A4, createA4Document, PDF_COLOURS } from '#app/lib/pdf/a4-document.server.ts'
import type { User } from '#db/schema.ts'
import type { PDFFont } from 'pdf-lib'

import { BASE_LABELS } from './annotation-schemas.ts'
import { annotationsOfProject } from './annotations.server.ts'

/** The material column of a stockpile that names none. */
const NO_MATERIAL = 'Not stated'

type InventoryRow = {
  name: string
  material: string
  base: string
  /** The net volume (cut − fill), m³; null when the note has no elevation model under it. */
  volumeM3: number | null
  densityTPerM3: number | null
  tonnes: number | null
  /** The survey's date (ISO day). */
  surveyDate: string
}
export type MaterialTotal = { material: string; volumeM3: number; tonnes: number | null }

export function stockpileInventory(user: Pick<User, 'id' | 'role'>, projectId: number, db: DbOrTx = getDb()) {
  const project = requireVisibleProject(user, projectId, db)
  const surveyDate = surveyDateOf(project).toISOString().slice(0, 10)
  const rows: InventoryRow[] = annotationsOfProject(projectId, db)
    .filter((n) => n.kind === 'polygon' && n.stockpileKind)
    .map((n) => ({
      name: n.title,
      material: n.material ?? NO_MATERIAL,
      base: n.base ? BASE_LABELS[n.base] : '',
      volumeM3: n.measurement.netM3 ?? null,
      densityTPerM3: n.densityTPerM3,
      tonnes: n.measurement.tonnes ?? null,
      surveyDate,
    }))
  return { project, rows, totals: totalsByMaterial(rows) }
}

/** Per material, in the order first met: its volume, and its tonnes (null when a pile of it has no density). */
function totalsByMaterial(rows: InventoryRow[]): MaterialTotal[] {
  const totals = new Map<string, MaterialTotal>()
  for (const row of rows) {
    const total = totals.get(row.material) ?? { material: row.material, volumeM3: 0, tonnes: 0 }
    total.volumeM3 += row.volumeM3 ?? 0
    total.tonnes = total.tonnes === null || row.tonnes === null ? null : total.tonnes + row.tonnes
    totals.set(row.material, total)
  }
  return [...totals.values()]
}

const COLUMNS = ['name', 'material', 'base', 'volume_m3', 'density_t_per_m3', 'tonnes', 'survey_date']

/** One stockpile a line, then a total line per material (a name cannot start a spreadsheet formula). */
export function stockpileInventoryCsv({ rows, totals }: ReturnType<typeof stockpileInventory>) {
  return csvText(COLUMNS, [
    ...rows.map((r) => [r.name, r.material, r.base, r.volumeM3, r.densityTPerM3, r.tonnes, r.surveyDate]),
    ...totals.map((t) => ['Total', t.material, '', t.volumeM3, '', t.tonnes, '']),
  ])
}

const LEFT = 40
/** Each column's x: text columns from their left edge, figures to their right edge. */
const COLUMN_X = [40, 175, 265, 425, 470, 530, 545]
const FIGURES = new Set([3, 4, 5])
const num = (v: number | null, decimals: number) => (v === null ? '–' : formatNumber(v, decimals))
const clip = (cell: string, i: number) => (i < 3 && cell.length > 26 ? `${cell.slice(0, 25)}…` : cell)

export async function stockpileInventoryPdf(inventory: ReturnType<typeof stockpileInventory>) {
  const { project, rows, totals } = inventory
  const {
    pdf,
    page: first,
    bold,
    text,
  } = await createA4Document({
    title: `Stockpile inventory: ${project.name}`,
    author: 'Kestrel Aerial Survey',
    subject: 'Stockpiles in tonnes',
    createdAt: new Date(),
  })
  let page = first
  let y = 790
  const line = (cells: string[], font?: PDFFont) => {
    if (y < 50) {
      page = pdf.addPage([A4.width, A4.height])
      y = 800
    }
    cells.forEach((cell, i) =>
      text(page, clip(cell, i), COLUMN_X[i]!, y, { size: 8, font, alignRight: FIGURES.has(i) }),
    )
    y -= 13
  }
  text(page, 'Stockpile inventory', LEFT, y, { font: bold, size: 18 })
  y -= 20
  text(page, project.name, LEFT, y, { font: bold, size: 11 })
  y -= 16
  text(
    page,
    `Survey date ${formatDate(surveyDateOf(project))}. Tonnes are the net volume × the density.`,
    LEFT,
    y,
    {
      size: 9,
      color: PDF_COLOURS.muted,
    },
  )
  y -= 24
  line(['Name', 'Material', 'Base', 'Net m³', 't/m³', 'Tonnes', 'Survey'], bold)
  for (const r of rows)
    line([
      r.name,
      r.material,
      r.base,
      num(r.volumeM3, 1),
      num(r.densityTPerM3, 2),
      num(r.tonnes, 1),
      r.surveyDate,
    ])
  if (!rows.length) line(['No stockpile notes on this project.'])
  y -= 10
  line(['Totals per material'], bold)
  for (const t of totals) line([t.material, '', '', num(t.volumeM3, 1), '', num(t.tonnes, 1), ''])
  return { bytes: await pdf.save(), fileName: `stockpiles-${project.id}.pdf` }
}
