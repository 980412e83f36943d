/** The simulated task's `odm_report/report.pdf`: what was "processed", the products and a picture of the orthophoto, headed SIMULATED PROCESSING. */
import { createA4Document, PDF_COLOURS, wrap } from '../../app/lib/pdf/a4-document.server.ts'
import type { TaskOption } from './options.ts'

export interface ReportInput {
  images: number
  geolocated: number
  epsg: number
  areaHa: number
  products: string[]
  options: readonly TaskOption[]
  preview: { png: Buffer; width: number; height: number }
}

export async function writeReport(input: ReportInput) {
  const { pdf, page, bold, regular, text } = await createA4Document({
    title: 'Processing report - SIMULATED PROCESSING',
    author: 'Kestrel NodeODM simulator',
    subject: 'SIMULATED PROCESSING: made-up products, not a survey',
    createdAt: new Date(),
  })
  const left = 50
  let y = 790
  text(page, 'SIMULATED PROCESSING', left, y, { size: 22, font: bold, color: PDF_COLOURS.amber })
  y -= 24
  text(page, 'Processing report', left, y, { size: 14, font: bold })
  y -= 18
  const note =
    "These products were made up by Kestrel's NodeODM simulator from the photos' positions and the survey area. No photogrammetry was run: they are for trying Kestrel out, not a survey."
  for (const line of wrap(note, regular, 10, 495)) {
    text(page, line, left, y, { color: PDF_COLOURS.muted })
    y -= 14
  }
  y -= 8
  const rows: Array<[string, string]> = [
    ['Images', String(input.images)],
    ['Images with a GPS position', String(input.geolocated)],
    ['Coordinate system', `EPSG:${input.epsg} (WGS 84 / UTM)`],
    ['Area', `${input.areaHa.toFixed(2)} ha`],
    [
      'Options',
      input.options
        .filter((o) => o.name !== 'boundary')
        .map((o) => `${o.name}=${String(o.value)}`)
        .join(', ') || 'defaults',
    ],
  ]
  for (const [label, value] of rows) {
    text(page, label, left, y, { font: bold })
    const lines = wrap(value, regular, 10, 330)
    for (const line of lines) {
      text(page, line, left + 165, y)
      y -= 14
    }
    y -= 2
  }
  y -= 6
  text(page, 'Products', left, y, { font: bold, size: 12 })
  y -= 16
  for (const product of input.products) {
    text(page, `- ${product}`, left, y)
    y -= 14
  }
  const image = await pdf.embedPng(input.preview.png)
  const maxW = 495
  const maxH = Math.max(120, y - 60)
  const scale = Math.min(maxW / input.preview.width, maxH / input.preview.height)
  const w = input.preview.width * scale
  const h = input.preview.height * scale
  page.drawImage(image, { x: left, y: y - 12 - h, width: w, height: h })
  text(page, 'Orthophoto (simulated)', left, y - 26 - h, { size: 9, color: PDF_COLOURS.muted })
  return Buffer.from(await pdf.save())
}
