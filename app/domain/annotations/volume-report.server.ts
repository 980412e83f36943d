/**
 * The volume report (PDF) a client can hand on: for each chosen polygon note, the elevation
 * model (file, survey date, GSD), the base its volume stands on (the note's: edge mean,
 * lowest edge point, triangulated, a typed height; or an earlier survey's model), area, cut,
 * fill and net — measured by the same services as POST …/volume and …/change, so the figures
 * are the API's — and a plan of the polygon over the orthomosaic, north up, with a scale bar,
 * and the models' accuracy statements. With a design surface chosen, each polygon also gets the
 * model's cut/fill to that design inside it. Access as for the project's deliverables.
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { volumeBaseOf } from '#app/domain/annotations/annotation-measure.server.ts'
import { BASE_LABELS, type AnnotationView } from '#app/domain/annotations/annotation-schemas.ts'
import { getAnnotation } from '#app/domain/annotations/annotations.server.ts'
import {
  designCutFill,
  designRows,
  drawReportExtras,
  toDesignInside,
  type DesignCutFill,
} from '#app/domain/annotations/volume-report-extras.server.ts'
import {
  accuracyText,
  DELIVERABLE_MESSAGES,
  statedGsdCm,
  type Deliverable,
} from '#app/domain/deliverables/deliverable.ts'
import {
  getDeliverable,
  listDeliverables,
  viewFileFor,
} from '#app/domain/deliverables/deliverables.server.ts'
import { MEASURE_MESSAGES } from '#app/domain/deliverables/measure-schemas.ts'
import { measureChange, measureVolume } from '#app/domain/deliverables/measure.server.ts'
import { gdal, type MeasureRun } from '#app/domain/deliverables/raster-measure.server.ts'
import type { CutFillFigures } from '#app/domain/design/cut-fill.server.ts'
import { ensureStorage } from '#app/domain/files/storage-paths.server.ts'
import { surveyDateOf } from '#app/domain/files/survey-dates.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import {
  formatCubicMetres,
  formatNumber,
  formatPercent,
  formatSquareMetres,
} from '#app/lib/format/numbers.ts'
import { parseId } from '#app/lib/http/api.server.ts'
import { DomainError, isDomainError } from '#app/lib/http/domain-error.ts'
import { A4, createA4Document, PDF_COLOURS, wrap } from '#app/lib/pdf/a4-document.server.ts'
import { drawNorthArrow, drawScaleBar } from '#app/lib/pdf/plan-drawing.server.ts'
import { projectFiles, type Project, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'
import { rgb, type PDFDocument, type PDFImage } from 'pdf-lib'

type Actor = Pick<User, 'id' | 'role'>

/** At most this many polygons in one report (each is a GDAL measure and a plan). */
const MAX_REPORT_POLYGONS = 20

const VOLUME_REPORT_MESSAGES = {
  annotationIds: `Choose 1 to ${MAX_REPORT_POLYGONS} polygon notes (annotationIds=1,2,3).`,
  notPolygon: (title: string) => `"${title}" is not a polygon: only polygons have a volume.`,
} as const

type Figures = {
  areaM2: number
  cutM3: number
  fillM3: number
  netM3: number
  coveredPercent: number
  /** The base in words, with its height where it is one height. */
  base: string
}

type ReportPolygon = {
  note: AnnotationView
  ring: [number, number][]
  figures: Figures
  /** The model against the chosen design inside this polygon, or why not (it misses the design). */
  toDesign: CutFillFigures | string | null
}

const surveyDate = surveyDateOf

/** An optional id in the query (absent or empty: none; 400 when not an id). */
function optionalId(query: URLSearchParams, name: string) {
  const value = query.get(name)
  return value === null || value === '' ? null : parseId(value, name)
}

/**
 * The report's query: `annotationIds=1,2` (or repeated), an optional `againstFileId` and an
 * optional `designSurfaceId` (the model's cut/fill to that design in the report).
 */
export function readVolumeReportQuery(query: URLSearchParams) {
  return {
    annotationIds: parseAnnotationIds(query.getAll('annotationIds')),
    againstFileId: optionalId(query, 'againstFileId'),
    designSurfaceId: optionalId(query, 'designSurfaceId'),
  }
}

/** `annotationIds=1,2` (or repeated): distinct positive ids, 1 to 20 of them; 400 otherwise. */
function parseAnnotationIds(values: string[]): number[] {
  const parts = values.flatMap((v) => v.split(',')).map((v) => v.trim())
  const ids = parts.map((p) => (/^\d{1,9}$/.test(p) ? Number(p) : NaN))
  const unique = [...new Set(ids)]
  if (!unique.length || unique.length > MAX_REPORT_POLYGONS || unique.some((id) => !(id > 0)))
    throw new DomainError(400, VOLUME_REPORT_MESSAGES.annotationIds)
  return unique
}

/** The chosen notes, in the order asked: 404 for one not of this project, 400 for a point or a line. */
function chosenPolygons(user: Actor, projectId: number, ids: number[], db: DbOrTx) {
  return ids.map((id) => {
    const note = getAnnotation(user, projectId, id, db)
    if (note.geometry.type !== 'Polygon')
      throw new DomainError(400, VOLUME_REPORT_MESSAGES.notPolygon(note.title))
    const ring = note.geometry.coordinates[0]!.map((p) => [p[0]!, p[1]!] as [number, number])
    return { note, ring }
  })
}

const metres = (m: number) => `${formatNumber(m, 2)} m`

async function measure(
  user: Actor,
  projectId: number,
  fileId: number,
  chosen: { note: AnnotationView; ring: [number, number][] },
  earlier: { file: Deliverable; date: Date } | null,
  signal: AbortSignal | undefined,
  db: DbOrTx,
): Promise<Figures> {
  if (earlier) {
    const f = await measureChange(
      user,
      projectId,
      fileId,
      { againstFileId: earlier.file.id, ring: chosen.ring },
      { signal },
      db,
    )
    return {
      ...f,
      base: `An earlier survey: ${earlier.file.fileName} of ${formatDate(earlier.date)}`,
    }
  }
  const noteBase = chosen.note.base ?? 'edge-mean'
  const f = await measureVolume(
    user,
    projectId,
    fileId,
    { ring: chosen.ring, base: volumeBaseOf(noteBase, chosen.note.baseElevationM) },
    { signal },
    db,
  )
  const height = noteBase === 'triangulated' ? '' : ` (${metres(f.baseElevationM)})`
  return { ...f, base: `${BASE_LABELS[noteBase]}${height}` }
}

/** The earlier survey's elevation model named by `againstFileId`, with its survey date (404 unless visible). */
function earlierModel(user: Actor, againstFileId: number, db: DbOrTx) {
  const file = db.select().from(projectFiles).where(eq(projectFiles.id, againstFileId)).get()
  if (!file) throw new DomainError(404, DELIVERABLE_MESSAGES.notFound)
  const project = requireVisibleProject(user, file.projectId, db)
  return { file: getDeliverable(user, project.id, file.id, db), date: surveyDate(project) }
}

/** The report for polygon notes on an elevation model of a project the user may see, as PDF bytes. */
export async function volumeReportPdf(
  user: Actor,
  projectId: number,
  fileId: number,
  input: {
    annotationIds: number[]
    againstFileId?: number | null
    designSurfaceId?: number | null
    signal?: AbortSignal
  },
  db: DbOrTx = getDb(),
) {
  const project = requireVisibleProject(user, projectId, db)
  const model = getDeliverable(user, projectId, fileId, db)
  if (model.kind !== 'elevation') throw new DomainError(400, MEASURE_MESSAGES.notElevation)
  const chosen = chosenPolygons(user, projectId, input.annotationIds, db)
  const earlier = input.againstFileId ? earlierModel(user, input.againstFileId, db) : null
  const design = input.designSurfaceId
    ? await designCutFill(user, projectId, fileId, input.designSurfaceId, input.signal, db)
    : null
  const polygons: ReportPolygon[] = []
  for (const c of chosen) {
    const figures = await measure(user, projectId, fileId, c, earlier, input.signal, db)
    const toDesign = input.designSurfaceId
      ? await toDesignInside(
          user,
          projectId,
          fileId,
          { designSurfaceId: input.designSurfaceId, ring: c.ring },
          input.signal,
          db,
        )
      : null
    polygons.push({ ...c, figures, toDesign })
  }

  const ortho = listDeliverables(user, projectId, db).find(
    (d) => d.kind === 'orthomosaic' && d.view?.cogUrl && !d.removedAt,
  )
  const cog = ortho ? viewFileFor(user, projectId, ortho.id, 'cog', db).path : null
  const run = { accountId: user.id, signal: input.signal }
  const bytes = await renderReport(
    { project, model, ortho: ortho ?? null, earlier, polygons, design },
    (ring, box) => (cog ? planImage(run, cog, ring, box) : Promise.resolve(null)),
  )
  return { bytes, fileName: `volume-report-${project.id}-${model.id}.pdf` }
}

/** A ring's frame on the page: its bounding box padded and stretched to the box's shape (degrees). */
function frameOf(ring: [number, number][], box: { width: number; height: number }) {
  const lngs = ring.map((p) => p[0])
  const lats = ring.map((p) => p[1])
  const [w, e, s, n] = [Math.min(...lngs), Math.max(...lngs), Math.min(...lats), Math.max(...lats)]
  const lat0 = (s + n) / 2
  // Equirectangular about the polygon's middle: right for a pile a few hundred metres across.
  const kx = Math.cos((lat0 * Math.PI) / 180)
  const M = 111_320
  let widthM = Math.max((e - w) * kx * M * 1.4, 20)
  let heightM = Math.max((n - s) * M * 1.4, 20)
  const aspect = box.width / box.height
  if (widthM / heightM < aspect) widthM = heightM * aspect
  else heightM = widthM / aspect
  const [cx, cy] = [(w + e) / 2, lat0]
  const dLng = widthM / (kx * M) / 2
  const dLat = heightM / M / 2
  return {
    west: cx - dLng,
    east: cx + dLng,
    south: cy - dLat,
    north: cy + dLat,
    metresPerPoint: widthM / box.width,
  }
}

type Frame = ReturnType<typeof frameOf>

/** The orthomosaic's viewing copy over a frame, north up, as PNG (through the GDAL pool); null if it cannot be read. */
async function planImage(
  run: MeasureRun,
  cog: string,
  ring: [number, number][],
  box: { width: number; height: number },
) {
  const frame = frameOf(ring, box)
  const widthPx = 1000
  const heightPx = Math.max(1, Math.round((widthPx * box.height) / box.width))
  const tmp = path.join(ensureStorage().tmp, `plan-${crypto.randomUUID()}`)
  try {
    const te = [frame.west, frame.south, frame.east, frame.north].map(String)
    const size = [String(widthPx), String(heightPx)]
    await gdal(run, 'gdalwarp', [
      '-q',
      '-of',
      'GTiff',
      '-t_srs',
      'EPSG:4326',
      '-te',
      ...te,
      '-ts',
      ...size,
      '-r',
      'bilinear',
      '-dstalpha',
      cog,
      `${tmp}.tif`,
    ])
    await gdal(run, 'gdal_translate', ['-q', '-of', 'PNG', `${tmp}.tif`, `${tmp}.png`])
    return await fs.readFile(`${tmp}.png`)
  } catch (error) {
    // A busy pool or a stopped request is the report's answer; an unreadable picture is one plan's note.
    if (isDomainError(error, 422)) return null
    throw error
  } finally {
    await Promise.all(['tif', 'png', 'png.aux.xml'].map((ext) => fs.rm(`${tmp}.${ext}`, { force: true })))
  }
}

const { ink: INK, muted: MUTED, amber: AMBER } = PDF_COLOURS
const LEFT = 50
const RIGHT = 545
const OUTLINE = rgb(0.95, 0.15, 0.2)

async function renderReport(
  report: {
    project: Project
    model: Deliverable
    ortho: Deliverable | null
    earlier: { file: Deliverable; date: Date } | null
    polygons: ReportPolygon[]
    design: DesignCutFill | null
  },
  picture: (ring: [number, number][], box: { width: number; height: number }) => Promise<Buffer | null>,
) {
  const { project, model, ortho, polygons } = report
  const doc = await createA4Document({
    title: `Volume report: ${project.name}`,
    author: 'Kestrel Aerial Survey',
    subject: `Volumes on ${model.fileName}`,
    createdAt: new Date(),
  })
  const { pdf, page: first, regular, bold, text } = doc
  const gsd = statedGsdCm(model)
  for (const [i, polygon] of polygons.entries()) {
    const page = i === 0 ? first : pdf.addPage([A4.width, A4.height])
    page.drawRectangle({ x: 0, y: 812, width: A4.width, height: 30, color: INK })
    text(page, 'KESTREL AERIAL SURVEY', LEFT, 823, { font: bold, size: 11, color: rgb(0.99, 0.72, 0.3) })
    text(page, `Polygon ${i + 1} of ${polygons.length}`, RIGHT, 823, {
      size: 9,
      color: rgb(1, 1, 1),
      alignRight: true,
    })
    text(page, 'Volume report', LEFT, 776, { font: bold, size: 20 })
    text(page, project.name, LEFT, 756, { font: bold, size: 12 })
    let y = 736
    text(page, polygon.note.title, LEFT, y, { font: bold, size: 11 })
    y -= 8
    const f = polygon.figures
    const rows: [string, string][] = [
      ['Elevation model', model.fileName],
      ['Survey date', formatDate(surveyDate(project))],
      ['GSD', gsd !== null ? `${formatNumber(gsd, 1)} cm/px` : 'not stated'],
      ['Accuracy', accuracyText(model.accuracy)],
      ['Base', f.base],
      ['Area', formatSquareMetres(f.areaM2)],
      ['Cut', formatCubicMetres(f.cutM3)],
      ['Fill', formatCubicMetres(f.fillM3)],
      ['Net', formatCubicMetres(f.netM3)],
      ['Covered by the model', formatPercent(f.coveredPercent, 1)],
      ...designRows(polygon.toDesign),
    ]
    for (const [label, value] of rows) {
      const lines = wrap(value, regular, 9.5, RIGHT - LEFT - 140)
      y -= 14
      text(page, label, LEFT, y, { font: bold, size: 9.5 })
      for (const [k, line] of lines.entries()) {
        if (k) y -= 12
        text(page, line, LEFT + 140, y, { size: 9.5, font: label === 'Net' ? bold : regular })
      }
    }
    y -= 16
    const box = { x: LEFT, width: RIGHT - LEFT, top: y, height: Math.min(380, y - 110) }
    await drawPlan(
      pdf,
      page,
      polygon,
      { ...box, y: box.top - box.height },
      await picture(polygon.ring, box),
      text,
    )
    y = box.top - box.height - 14
    text(
      page,
      ortho
        ? `Plan over ${ortho.fileName} (accuracy: ${accuracyText(ortho.accuracy)}); north up.`
        : 'No orthomosaic to draw on; north up.',
      LEFT,
      y,
      { size: 8, color: MUTED },
    )
    y -= 14
    page.drawLine({ start: { x: LEFT, y }, end: { x: RIGHT, y }, thickness: 2, color: AMBER })
    y -= 12
    const method = report.earlier
      ? "Volumes are this elevation model minus the earlier survey's, resampled onto this model's grid, over the cells inside the polygon where both have data. Every cell counts, however little it moved: no minimum change is applied. Cut is material removed, fill is material added, net = fill - cut."
      : 'Volumes are the elevation model above (cut) and below (fill) the base, summed over the cells whose centres lie inside the polygon; cells without data are skipped ("Covered"). Net = cut - fill. Areas are on the ground (ellipsoidal).'
    const toDesign = polygon.toDesign
      ? ' To the design: the model above the design surface is cut, below it fill, over the cells inside the polygon where both have a height.'
      : ''
    for (const line of wrap(method + toDesign, regular, 8, RIGHT - LEFT)) {
      text(page, line, LEFT, y, { size: 8, color: MUTED })
      y -= 10
    }
  }
  drawReportExtras(doc, { projectName: project.name, model, design: report.design })
  return pdf.save()
}

type TextFn = Awaited<ReturnType<typeof createA4Document>>['text']

/** The polygon over its picture (or a blank plate), north up, to scale. */
async function drawPlan(
  pdf: PDFDocument,
  page: ReturnType<PDFDocument['addPage']>,
  polygon: ReportPolygon,
  box: { x: number; y: number; width: number; height: number },
  png: Buffer | null,
  text: TextFn,
) {
  const frame: Frame = frameOf(polygon.ring, box)
  page.drawRectangle({
    ...box,
    color: rgb(0.95, 0.96, 0.98),
    borderColor: rgb(0.85, 0.88, 0.92),
    borderWidth: 1,
  })
  const image: PDFImage | null = png ? await pdf.embedPng(png).catch(() => null) : null
  if (image) page.drawImage(image, box)
  else
    text(page, 'No orthomosaic picture available', box.x + 8, box.y + box.height - 14, {
      size: 8,
      color: MUTED,
    })
  const at = ([lng, lat]: [number, number]) => ({
    x: box.x + ((lng - frame.west) / (frame.east - frame.west)) * box.width,
    y: box.y + ((lat - frame.south) / (frame.north - frame.south)) * box.height,
  })
  const corners = polygon.ring.map(at)
  for (let k = 1; k < corners.length; k++)
    page.drawLine({ start: corners[k - 1]!, end: corners[k]!, thickness: 1.8, color: OUTLINE })
  drawScaleBar(page, { x: box.x + 14, y: box.y + 14 }, frame.metresPerPoint, text, { halo: true })
  drawNorthArrow(page, { x: box.x + box.width - 20, y: box.y + box.height - 44 }, text)
}
