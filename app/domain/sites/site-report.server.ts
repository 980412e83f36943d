/**
 * The site report: one PDF for a pair of a site's surveys — the site, both survey
 * dates, both surveys' thumbnails, the polygons drawn to scale, and for each polygon the
 * elevation change (the later model minus the earlier one, the same engine as
 * POST …/change). The polygons are the later survey's areas, then any the caller drew.
 */
import { accuracyText, type Deliverable } from '#app/domain/deliverables/deliverable.ts'
import { listDeliverables, viewFileFor } from '#app/domain/deliverables/deliverables.server.ts'
import { elevationChangeOver } from '#app/domain/deliverables/elevation-change.server.ts'
import { elevationThumbnail } from '#app/domain/deliverables/elevation-preview.server.ts'
import { sharedRange, type HeightRange } from '#app/domain/deliverables/elevation-ramp.ts'
import { PolygonSchema, type ChangeFigures } from '#app/domain/deliverables/measure-schemas.ts'
import { countMeasure } from '#app/domain/deliverables/measure.server.ts'
import { designComparisons, type DesignComparison } from '#app/domain/design/cut-fill.server.ts'
import { getDownloadableFile } from '#app/domain/files/file-queries.server.ts'
import { surveyDateOf } from '#app/domain/files/survey-dates.server.ts'
import { flightPlanAreas } from '#app/domain/flight-plan/flight-plan.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatCubicMetres, formatPercent, formatSquareMetres } from '#app/lib/format/numbers.ts'
import { DomainError, isDomainError } from '#app/lib/http/domain-error.ts'
import { A4, createA4Document, PDF_COLOURS, wrap } from '#app/lib/pdf/a4-document.server.ts'
import { drawScaleBar } from '#app/lib/pdf/plan-drawing.server.ts'
import { readStoredFile, withLocalFile } from '#app/lib/storage/file-cache.server.ts'
import type { Project, ProjectFile } from '#db/schema.ts'
import { rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib'
import { z } from 'zod'

import { getSiteForUser, listSiteProjects, type SiteViewer } from './site-access.server.ts'

export const SITE_REPORT_MESSAGES = {
  surveys: 'Choose two different surveys of this site.',
  surveyNotFound: 'Survey not found on this site',
  polygons: 'Polygons must be a JSON list of up to 10 GeoJSON Polygons (longitude, latitude).',
  noElevation: (date: string) => `The survey of ${date} has no elevation model.`,
} as const

/** The report's survey pictures, px wide (the viewing copy's thumbnail size). */
const THUMBNAIL_PX = 320
/** At most this many drawn polygons (each one is a GDAL measure). */
const MAX_DRAWN = 10
/** The `polygons` form field, as text: far above 10 polygons of 1000 corners in short decimals. */
const MAX_POLYGONS_TEXT = 400_000

const DrawnPolygonsSchema = z.array(PolygonSchema).max(MAX_DRAWN)

/** The caller's drawn polygons from the `polygons` form field (JSON text); blank is none. */
export function parseDrawnPolygons(text: string | null | undefined): [number, number][][] {
  if (!text?.trim()) return []
  if (text.length > MAX_POLYGONS_TEXT) throw new DomainError(400, SITE_REPORT_MESSAGES.polygons)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new DomainError(400, SITE_REPORT_MESSAGES.polygons)
  }
  const parsed = DrawnPolygonsSchema.safeParse(value)
  if (!parsed.success) throw new DomainError(400, SITE_REPORT_MESSAGES.polygons)
  return parsed.data.map((p) => p.coordinates[0]!.map(([lng, lat]) => [lng, lat] as [number, number]))
}

type Survey = { project: Project; date: Date; deliverables: Deliverable[] }

type ReportPolygon = {
  label: string
  ring: [number, number][]
  figures: ChangeFigures | null
  /** Why there are no figures (the measure's own message). */
  note: string | null
}

const surveyDate = surveyDateOf

/** The two surveys, earlier first, whichever order they were named in. */
function surveyPair(user: SiteViewer, siteId: number, ids: [number, number], db: DbOrTx): [Survey, Survey] {
  if (ids[0] === ids[1]) throw new DomainError(400, SITE_REPORT_MESSAGES.surveys)
  const projects = listSiteProjects(siteId, db)
  const picked = projects.filter((p) => ids.includes(p.id))
  if (picked.length !== 2) throw new DomainError(404, SITE_REPORT_MESSAGES.surveyNotFound)
  return picked.map((project) => ({
    project,
    date: surveyDate(project),
    deliverables: listDeliverables(user, project.id, db).filter((d) => !d.removedAt),
  })) as [Survey, Survey]
}

/**
 * The survey's elevation model on disk, if this user may read it (the download rule: a
 * client's deliverables expire), else why not, in words for the report's rows.
 */
function elevationModelOf(
  user: SiteViewer,
  survey: Survey,
  db: DbOrTx,
): { path: string; file: ProjectFile } | { note: string } {
  const model = survey.deliverables.find((d) => d.kind === 'elevation')
  if (!model) return { note: SITE_REPORT_MESSAGES.noElevation(formatDate(survey.date)) }
  try {
    const { path, file } = getDownloadableFile(user, model.id, db)
    return { path, file }
  } catch (error) {
    if (error instanceof DomainError && error.status < 500) return { note: error.message }
    throw error
  }
}

/**
 * The survey's picture: its orthomosaic's thumbnail, else its elevation model's, in the map's
 * ramp over `range` (both surveys' models, as the site map stretches them); null until one is ready.
 */
async function thumbnailOf(
  user: SiteViewer,
  survey: Survey,
  range: HeightRange | null,
  signal: AbortSignal | undefined,
  db: DbOrTx,
) {
  for (const kind of ['orthomosaic', 'elevation'] as const) {
    const file = survey.deliverables.find((d) => d.kind === kind && d.view?.thumbnailUrl)
    if (!file) continue
    try {
      // viewFileFor applies the download rule, as the Map view's thumbnail link does.
      if (kind === 'elevation' && range && file.view?.cogUrl) {
        const cog = viewFileFor(user, survey.project.id, file.id, 'cog', db).path
        const run = { owner: { accountId: user.id }, signal, timeoutMs: 60_000 }
        return await withLocalFile(cog, (local) => elevationThumbnail(local, range, THUMBNAIL_PX, run))
      }
      return await readStoredFile(viewFileFor(user, survey.project.id, file.id, 'thumbnail', db).path)
    } catch (error) {
      // A busy server or a stopped request is the whole report's answer.
      if ((isDomainError(error) && error.status === 429) || signal?.aborted) throw error
      continue
    }
  }
  return null
}

/** Both surveys' elevation models' range (the map's legend), when both are known. */
function bothModelsRange(surveys: [Survey, Survey]) {
  const views = surveys.map((s) => s.deliverables.find((d) => d.kind === 'elevation')?.view ?? null)
  return views.every((v) => v?.minValue != null && v.maxValue != null) ? sharedRange(views) : null
}

async function measurePolygons(
  user: SiteViewer,
  [before, after]: [Survey, Survey],
  rings: { label: string; ring: [number, number][] }[],
  signal: AbortSignal | undefined,
  db: DbOrTx,
): Promise<ReportPolygon[]> {
  const [earlier, later] = [elevationModelOf(user, before, db), elevationModelOf(user, after, db)]
  if ('note' in earlier || 'note' in later) {
    const note = 'note' in earlier ? earlier.note : (later as { note: string }).note
    return rings.map((r) => ({ ...r, figures: null, note }))
  }
  if (rings.length) await countMeasure(user.id)
  const out: ReportPolygon[] = []
  for (const r of rings) {
    try {
      const run = { accountId: user.id, signal }
      const figures = await elevationChangeOver(run, later.path, earlier.path, r.ring)
      out.push({ ...r, figures, note: null })
    } catch (error) {
      // A busy server or a stopped request is the whole report's answer, not one row's note.
      if (!(error instanceof DomainError) || error.status >= 500 || error.status === 429 || signal?.aborted)
        throw error
      out.push({ ...r, figures: null, note: error.message })
    }
  }
  return out
}

/** The report for two surveys of a site the user may see (404 otherwise), as PDF bytes and a file name. */
export async function siteReportPdf(
  user: SiteViewer,
  siteId: number,
  input: {
    beforeProjectId: number
    afterProjectId: number
    drawn: [number, number][][]
    signal?: AbortSignal
  },
  db: DbOrTx = getDb(),
) {
  const site = getSiteForUser(user, siteId, db)
  const surveys = surveyPair(user, site.id, [input.beforeProjectId, input.afterProjectId], db)
  const rings = [
    ...(flightPlanAreas(surveys[1].project.flightPlan) ?? []).map((area, i) => ({
      label: `Survey area ${i + 1}`,
      ring: area.coordinates.map((p) => [p.longitude, p.latitude] as [number, number]),
    })),
    ...input.drawn.map((ring, i) => ({ label: `Drawn polygon ${i + 1}`, ring })),
  ]
  const polygons = await measurePolygons(user, surveys, rings, input.signal, db)
  // The later survey against each of its project's design surfaces (cut/fill to design).
  const later = elevationModelOf(user, surveys[1], db)
  const designs =
    'path' in later ? await designComparisons(user, surveys[1].project.id, later.path, input.signal, db) : []
  const range = bothModelsRange(surveys)
  const thumbnails = await Promise.all(
    surveys.map((survey) => thumbnailOf(user, survey, range, input.signal, db)),
  )
  const bytes = await renderSiteReport({ siteName: site.name, surveys, thumbnails, polygons, designs })
  return { bytes, fileName: `site-report-${site.id}-${surveys[0].project.id}-${surveys[1].project.id}.pdf` }
}

const { ink: INK, muted: MUTED, amber: AMBER } = PDF_COLOURS
const LINE = rgb(0.85, 0.88, 0.92)
const LEFT = 50
const RIGHT = 545
const OUTLINE_COLOURS = [rgb(0.85, 0.33, 0.1), rgb(0.1, 0.45, 0.8), rgb(0.2, 0.6, 0.3), rgb(0.6, 0.2, 0.6)]

async function renderSiteReport(report: {
  siteName: string
  surveys: [Survey, Survey]
  thumbnails: (Buffer | null)[]
  polygons: ReportPolygon[]
  designs: DesignComparison[]
}) {
  const [before, after] = report.surveys
  const { pdf, page, regular, bold, text } = await createA4Document({
    title: `Site report: ${report.siteName}`,
    author: 'Kestrel Aerial Survey',
    subject: `Elevation change between ${formatDate(before.date)} and ${formatDate(after.date)}`,
    createdAt: new Date(),
  })
  page.drawRectangle({ x: 0, y: 812, width: A4.width, height: 30, color: INK })
  text(page, 'KESTREL AERIAL SURVEY', LEFT, 823, { font: bold, size: 11, color: rgb(0.99, 0.72, 0.3) })
  text(page, 'Site report', LEFT, 772, { font: bold, size: 22 })
  text(page, report.siteName, LEFT, 750, { font: bold, size: 13 })
  text(page, `Surveys compared: ${formatDate(before.date)} and ${formatDate(after.date)}`, LEFT, 734, {
    size: 10,
    color: MUTED,
  })

  // Both surveys side by side, earlier on the left.
  const boxW = 240
  const boxH = 170
  const boxTop = 715
  for (const [i, survey] of report.surveys.entries()) {
    const x = i === 0 ? LEFT : RIGHT - boxW
    page.drawRectangle({ x, y: boxTop - boxH, width: boxW, height: boxH, color: rgb(0.95, 0.96, 0.98) })
    const bytes = report.thumbnails[i]
    const image: PDFImage | null = bytes ? await pdf.embedPng(bytes).catch(() => null) : null
    if (image) {
      const { width, height } = image.scaleToFit(boxW, boxH)
      page.drawImage(image, {
        x: x + (boxW - width) / 2,
        y: boxTop - boxH + (boxH - height) / 2,
        width,
        height,
      })
    } else
      text(page, 'No thumbnail available', x + boxW / 2 - 50, boxTop - boxH / 2, { size: 9, color: MUTED })
    text(page, `${i === 0 ? 'Before' : 'After'}: ${formatDate(survey.date)}`, x, boxTop - boxH - 14, {
      font: bold,
      size: 10,
    })
    text(page, survey.project.name, x, boxTop - boxH - 27, { size: 9, color: MUTED })
    const model = survey.deliverables.find((d) => d.kind === 'elevation')
    text(page, `Accuracy: ${accuracyText(model?.accuracy)}`, x, boxTop - boxH - 39, { size: 8, color: MUTED })
  }

  const sketchTop = boxTop - boxH - 55
  const sketchH = 190
  drawPolygonSketch(page, report.polygons, { top: sketchTop, height: sketchH }, { text, bold })
  let y = sketchTop - sketchH - 24
  let current = page
  const newPageIfLow = () => {
    if (y > 90) return
    current = pdf.addPage([A4.width, A4.height])
    y = 790
  }

  // The figures, one row per polygon.
  const columns: [string, number][] = [
    ['Polygon', LEFT + 8],
    ['Area', 260],
    ['Cut', 335],
    ['Fill', 410],
    ['Net', 485],
    ['Compared', RIGHT - 4],
  ]
  current.drawRectangle({ x: LEFT, y: y - 6, width: RIGHT - LEFT, height: 20, color: rgb(0.95, 0.96, 0.98) })
  for (const [label, x] of columns)
    text(current, label, x, y, { font: bold, size: 9, alignRight: x !== LEFT + 8 })
  y -= 20
  if (!report.polygons.length) {
    text(current, 'No polygons: the later survey has no areas and none were drawn.', LEFT + 8, y, { size: 9 })
    y -= 14
  }
  for (const [i, polygon] of report.polygons.entries()) {
    newPageIfLow()
    text(current, `${i + 1}. ${polygon.label}`, LEFT + 8, y, { size: 9.5, font: bold })
    const f = polygon.figures
    if (f) {
      const values = [
        formatSquareMetres(f.areaM2),
        formatCubicMetres(f.cutM3),
        formatCubicMetres(f.fillM3),
        formatCubicMetres(f.netM3),
        formatPercent(f.coveredPercent, 1),
      ]
      for (const [k, value] of values.entries())
        text(current, value, columns[k + 1]![1], y, {
          size: 9.5,
          alignRight: true,
          font: k === 3 ? bold : regular,
        })
      y -= 16
    } else {
      y -= 13
      for (const line of wrap(polygon.note ?? '', regular, 9, RIGHT - LEFT - 30)) {
        text(current, line, LEFT + 20, y, { size: 9, color: MUTED })
        y -= 12
      }
      y -= 4
    }
  }

  // The later survey against its design surfaces: one line each.
  for (const [i, design] of report.designs.entries()) {
    newPageIfLow()
    if (i === 0) {
      y -= 6
      text(
        current,
        `Against the design (${formatDate(after.date)}): cut, fill, net = cut - fill`,
        LEFT + 8,
        y,
        {
          font: bold,
          size: 9.5,
        },
      )
      y -= 15
    }
    const f = design.figures
    const line = f
      ? `${design.name}: cut ${formatCubicMetres(f.cutM3)}, fill ${formatCubicMetres(f.fillM3)}, net ${formatCubicMetres(f.netM3)} over ${formatSquareMetres(f.areaM2)}`
      : `${design.name}: ${design.note ?? ''}`
    for (const part of wrap(line, regular, 9, RIGHT - LEFT - 16)) {
      text(current, part, LEFT + 8, y, { size: 9, color: f ? INK : MUTED })
      y -= 12
    }
  }

  y -= 8
  newPageIfLow()
  current.drawLine({ start: { x: LEFT, y: y + 6 }, end: { x: RIGHT, y: y + 6 }, thickness: 2, color: AMBER })
  y -= 10
  for (const line of wrap(
    'Volumes are the later elevation model minus the earlier one, resampled onto the later model\'s grid, over the cells inside each polygon where both models have data ("Compared" is that share of the polygon). Cut is material removed, fill is material added, net = fill - cut: a stockpile carted away is a negative net. Areas are the polygons\' areas on the ground. Every cell counts, however little it moved: no minimum change is applied to the figures.',
    regular,
    8.5,
    RIGHT - LEFT,
  )) {
    text(current, line, LEFT, y, { size: 8.5, color: MUTED })
    y -= 11
  }
  return pdf.save()
}

type TextFn = Awaited<ReturnType<typeof createA4Document>>['text']

/** The polygons' outlines to scale (north up), numbered as in the table below. */
function drawPolygonSketch(
  page: PDFPage,
  polygons: ReportPolygon[],
  box: { top: number; height: number },
  { text, bold }: { text: TextFn; bold: PDFFont },
) {
  const width = RIGHT - LEFT
  page.drawRectangle({
    x: LEFT,
    y: box.top - box.height,
    width,
    height: box.height,
    borderColor: LINE,
    borderWidth: 1,
  })
  text(page, 'Polygons (north up, to scale)', LEFT + 6, box.top - 12, { size: 8, color: MUTED })
  const points = polygons.flatMap((p) => p.ring)
  if (!points.length) return
  const lat0 = points.reduce((s, p) => s + p[1], 0) / points.length
  // Equirectangular about the polygons' mean latitude: right for a site a few km across.
  const kx = Math.cos((lat0 * Math.PI) / 180)
  const xs = points.map((p) => p[0] * kx)
  const ys = points.map((p) => p[1])
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  const pad = 24
  const scale = Math.min(
    (width - 2 * pad) / (maxX - minX || 1e-9),
    (box.height - 2 * pad) / (maxY - minY || 1e-9),
  )
  const cx = LEFT + width / 2
  const cy = box.top - box.height / 2
  const at = ([lng, lat]: [number, number]) => ({
    x: cx + (lng * kx - (minX + maxX) / 2) * scale,
    y: cy + (lat - (minY + maxY) / 2) * scale,
  })
  drawScaleBar(page, { x: LEFT + 10, y: box.top - box.height + 10 }, 111_320 / scale, text)
  for (const [i, polygon] of polygons.entries()) {
    const colour = OUTLINE_COLOURS[i % OUTLINE_COLOURS.length]!
    const corners = polygon.ring.map(at)
    for (let k = 1; k < corners.length; k++)
      page.drawLine({ start: corners[k - 1]!, end: corners[k]!, thickness: 1.2, color: colour })
    const first = corners[0]!
    const last = corners[corners.length - 1]!
    if (first.x !== last.x || first.y !== last.y)
      page.drawLine({ start: last, end: first, thickness: 1.2, color: colour })
    // The number stands just above the northernmost corner, so nested polygons keep theirs apart.
    const north = corners.reduce((top, c) => (c.y > top.y ? c : top), first)
    text(page, String(i + 1), north.x - 3, north.y + 4, { size: 10, font: bold, color: colour })
  }
}
