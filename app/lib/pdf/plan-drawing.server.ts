/**
 * What a report's plan is drawn with (the site report's sketch, the volume report's plan): a
 * scale bar of a round length and a north arrow, in PDF points.
 */
import { formatNumber } from '#app/lib/format/numbers.ts'
import type { PDFPage } from 'pdf-lib'

import { PDF_COLOURS, type createA4Document } from './a4-document.server.ts'

type TextFn = Awaited<ReturnType<typeof createA4Document>>['text']

const { ink: INK, muted: MUTED, white: WHITE } = PDF_COLOURS

/** A bar of a round length (1, 2 or 5 × 10ⁿ m) about 100 pt long, at `metresPerPoint`; its length in metres. */
export function drawScaleBar(
  page: PDFPage,
  at: { x: number; y: number },
  metresPerPoint: number,
  text: TextFn,
  { halo = false }: { halo?: boolean } = {},
) {
  const rough = metresPerPoint * 100
  const magnitude = 10 ** Math.floor(Math.log10(rough))
  const metres = [5, 2, 1].map((k) => k * magnitude).find((m) => m <= rough) ?? magnitude
  const length = metres / metresPerPoint
  const label = `${formatNumber(metres, 2, { minDecimals: 0 })} m`
  // Over a photo the bar sits on a white plate so it stays readable.
  if (halo)
    page.drawRectangle({
      x: at.x - 6,
      y: at.y - 8,
      width: length + 60,
      height: 16,
      color: WHITE,
      opacity: 0.85,
    })
  page.drawLine({ start: at, end: { x: at.x + length, y: at.y }, thickness: 1.5, color: INK })
  for (const x of [at.x, at.x + length])
    page.drawLine({ start: { x, y: at.y - 3 }, end: { x, y: at.y + 3 }, thickness: 1, color: INK })
  text(page, label, at.x + length + 6, at.y - 3, { size: 8, color: halo ? INK : MUTED })
  return metres
}

/** An arrow pointing up with an N above it (the plans are drawn north up). */
export function drawNorthArrow(page: PDFPage, at: { x: number; y: number }, text: TextFn) {
  page.drawRectangle({ x: at.x - 9, y: at.y - 4, width: 18, height: 38, color: WHITE, opacity: 0.85 })
  page.drawLine({ start: at, end: { x: at.x, y: at.y + 20 }, thickness: 1.5, color: INK })
  page.drawLine({
    start: { x: at.x - 5, y: at.y + 13 },
    end: { x: at.x, y: at.y + 20 },
    thickness: 1.5,
    color: INK,
  })
  page.drawLine({
    start: { x: at.x + 5, y: at.y + 13 },
    end: { x: at.x, y: at.y + 20 },
    thickness: 1.5,
    color: INK,
  })
  text(page, 'N', at.x - 3.5, at.y + 23, { size: 9, color: INK })
}
