/**
 * Stockpile inventories: a project's (every stockpile or pit note with its material, base, net
 * volume, density and tonnes, net volume × density) and a site's (the same for each survey of
 * the site, from the series kept on each note), with totals per material and survey, as CSV and
 * as an A4 PDF. Project (site) members read them; others 404.
 */
import { surveyDateOf } from '#app/domain/files/survey-dates.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { getSiteForUser } from '#app/domain/sites/site-access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { csvText } from '#app/lib/format/csv.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import { A4, createA4Document, PDF_COLOURS } from '#app/lib/pdf/a4-document.server.ts'
import type { AnnotationBase, User } from '#db/schema.ts'
import type { PDFFont } from 'pdf-lib'

import { BASE_LABELS } from './annotation-schemas.ts'
import { annotationsOfProject } from './annotations.server.ts'
import { siteStockpiles, stockpileNotesOfSite } from './stockpile-series.server.ts'

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
type MaterialTotal = { material: string; surveyDate: string; volumeM3: number; tonnes: number | null }

/** What an inventory's CSV and PDF are made of: its heading, its rows and their totals. */
type Inventory = {
  title: string
  /** The line under the title: which survey(s). */
  surveys: string
  fileName: string
  rows: InventoryRow[]
  totals: MaterialTotal[]
}

/** One stockpile on one survey: tonnes are its net volume × its density (none without a density). */
function inventoryRow(
  note: { title: string; material: string | null; densityTPerM3: number | null },
  base: AnnotationBase | null,
  netM3: number | null,
  surveyDate: string,
): InventoryRow {
  const density = note.densityTPerM3
  return {
    name: note.title,
    material: note.material ?? NO_MATERIAL,
    base: base ? BASE_LABELS[base] : '',
    volumeM3: netM3,
    densityTPerM3: density,
    tonnes: density === null || netM3 === null ? null : netM3 * density,
    surveyDate,
  }
}

type Viewer = Pick<User, 'id' | 'role'>

/** A project's inventory, or a site's (each survey of it); 404 for whoever may not see it. */
export function stockpileInventory(
  user: Viewer,
  of: { projectId: number } | { siteId: number },
  db: DbOrTx = getDb(),
): Inventory {
  return 'siteId' in of ? siteInventory(user, of.siteId, db) : projectInventory(user, of.projectId, db)
}

function projectInventory(user: Viewer, projectId: number, db: DbOrTx): Inventory {
  const project = requireVisibleProject(user, projectId, db)
  const surveyDate = surveyDateOf(project).toISOString().slice(0, 10)
  const rows: InventoryRow[] = annotationsOfProject(projectId, db)
    .filter((n) => n.kind === 'polygon' && n.stockpileKind)
    .map((n) => inventoryRow(n, n.base, n.measurement.netM3 ?? null, surveyDate))
  return {
    title: project.name,
    surveys: `Survey date ${formatDate(surveyDateOf(project))}.`,
    fileName: `stockpiles-${project.id}`,
    rows,
    totals: totalsByMaterial(rows),
  }
}

/**
 * A site's inventory: each stockpile on each survey it has figures for (the page's series; a
 * survey still being measured is left out until it is), oldest survey first.
 */
function siteInventory(user: Viewer, siteId: number, db: DbOrTx): Inventory {
  const site = getSiteForUser(user, siteId, db)
  const notes = new Map(stockpileNotesOfSite(site.id, db).map((n) => [n.id, n]))
  const rows: InventoryRow[] = siteStockpiles(user, site.id, db)
    .flatMap((pile) => {
      const note = notes.get(pile.id)
      const known = {
        title: pile.title,
        material: note?.material ?? null,
        densityTPerM3: note?.densityTPerM3 ?? null,
      }
      return pile.points.map((point) =>
        inventoryRow(known, point.base, point.netM3, point.surveyedAt.slice(0, 10)),
      )
    })
    .sort((a, b) => a.surveyDate.localeCompare(b.surveyDate))
  const dates = [...new Set(rows.map((r) => r.surveyDate))]
  return {
    title: site.name,
    surveys: dates.length
      ? `${dates.length} survey${dates.length === 1 ? '' : 's'}, ${dates[0]} to ${dates.at(-1)}.`
      : 'No survey measured yet.',
    fileName: `site-${site.id}-stockpiles`,
    rows,
    totals: totalsByMaterial(rows),
  }
}

/** Per survey and material, in the order first met: its volume, and its tonnes (null when a pile of it has no density). */
function totalsByMaterial(rows: InventoryRow[]): MaterialTotal[] {
  const totals = new Map<string, MaterialTotal>()
  for (const row of rows) {
    const key = `${row.surveyDate} ${row.material}`
    const total = totals.get(key) ?? {
      material: row.material,
      surveyDate: row.surveyDate,
      volumeM3: 0,
      tonnes: 0,
    }
    total.volumeM3 += row.volumeM3 ?? 0
    total.tonnes = total.tonnes === null || row.tonnes === null ? null : total.tonnes + row.tonnes
    totals.set(key, total)
  }
  return [...totals.values()]
}

const COLUMNS = ['name', 'material', 'base', 'volume_m3', 'density_t_per_m3', 'tonnes', 'survey_date']

/** One stockpile a line, then a total line per material (a name cannot start a spreadsheet formula). */
export function stockpileInventoryCsv({ rows, totals }: Inventory) {
  return csvText(COLUMNS, [
    ...rows.map((r) => [r.name, r.material, r.base, r.volumeM3, r.densityTPerM3, r.tonnes, r.surveyDate]),
    ...totals.map((t) => ['Total', t.material, '', t.volumeM3, '', t.tonnes, t.surveyDate]),
  ])
}

const LEFT = 40
/** Each column's x: text columns from their left edge, figures to their right edge. */
const COLUMN_X = [40, 175, 265, 425, 470, 530, 545]
const FIGURES = new Set([3, 4, 5])
const num = (v: number | null, decimals: number) => (v === null ? '–' : formatNumber(v, decimals))
const clip = (cell: string, i: number) => (i < 3 && cell.length > 26 ? `${cell.slice(0, 25)}…` : cell)

export async function stockpileInventoryPdf(inventory: Inventory) {
  const { title, surveys, fileName, rows, totals } = inventory
  const {
    pdf,
    page: first,
    bold,
    text,
  } = await createA4Document({
    title: `Stockpile inventory: ${title}`,
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
  text(page, title, LEFT, y, { font: bold, size: 11 })
  y -= 16
  text(page, `${surveys} Tonnes are the net volume × the density.`, LEFT, y, {
    size: 9,
    color: PDF_COLOURS.muted,
  })
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
  if (!rows.length) line(['No stockpiles with figures yet.'])
  y -= 10
  line(['Totals per material'], bold)
  for (const t of totals) line([t.material, '', '', num(t.volumeM3, 1), '', num(t.tonnes, 1), t.surveyDate])
  return { bytes: await pdf.save(), fileName: `${fileName}.pdf` }
}
