/**
 * The one way we draw a PDF (tax invoices, credit notes, the land owner template): an A4
 * page in pdf-lib's standard Helvetica, the brand colours, and text that the standard fonts
 * can encode.
 */
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib'

export const A4 = { width: 595.28, height: 841.89 } as const
export const PDF_COLOURS = {
  ink: rgb(0.07, 0.09, 0.15),
  muted: rgb(0.35, 0.4, 0.5),
  amber: rgb(0.96, 0.49, 0.04),
  white: rgb(1, 1, 1),
} as const

/** The standard fonts speak WinAnsi: keep Latin-1, replace the rest. */
export function pdfSafe(text: string) {
  return text
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/[^\x20-\x7e\xa0-\xff]/g, '?')
}

/** Breaks text into lines no wider than `width` at `size` (a word longer than a line stays whole). */
export function wrap(text: string, font: PDFFont, size: number, width: number) {
  const lines: string[] = []
  for (const paragraph of text.split('\n').map(pdfSafe)) {
    let line = ''
    for (const word of paragraph.split(/\s+/)) {
      const candidate = line ? `${line} ${word}` : word
      if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate
      else {
        lines.push(line)
        line = word
      }
    }
    lines.push(line)
  }
  return lines
}

export interface TextOptions {
  size?: number
  font?: PDFFont
  color?: ReturnType<typeof rgb>
  /** `x` is the right edge of the text. */
  alignRight?: boolean
}

/** A new document with one A4 page, its metadata set, both fonts embedded and a text helper. */
export async function createA4Document(meta: {
  title: string
  author: string
  subject: string
  createdAt: Date
}) {
  const pdf = await PDFDocument.create()
  pdf.setTitle(meta.title)
  pdf.setAuthor(meta.author)
  pdf.setSubject(meta.subject)
  pdf.setCreationDate(meta.createdAt)
  pdf.setModificationDate(meta.createdAt)
  const page = pdf.addPage([A4.width, A4.height])
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const text = (p: PDFPage, value: string, x: number, y: number, opts: TextOptions = {}) => {
    const size = opts.size ?? 10
    const font = opts.font ?? regular
    const safe = pdfSafe(value)
    const dx = opts.alignRight ? font.widthOfTextAtSize(safe, size) : 0
    p.drawText(safe, { x: x - dx, y, size, font, color: opts.color ?? PDF_COLOURS.ink })
  }
  return { pdf, page, regular, bold, text }
}
