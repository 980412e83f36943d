/**
 * The one way we draw a PDF (tax invoices, credit notes, the land owner template, the reports):
 * an A4 page in pdf-lib's standard Helvetica and the brand colours. What Helvetica cannot encode
 * (WinAnsi: ✓, ≤, →, most scripts) is drawn in DejaVu Sans Condensed, embedded as a subset of
 * the glyphs used, so a title's "✓" or "–" reaches the page as typed; a character neither
 * font has becomes "?".
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import fontkit from '@pdf-lib/fontkit'
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib'

export const A4 = { width: 595.28, height: 841.89 } as const
export const PDF_COLOURS = {
  ink: rgb(0.07, 0.09, 0.15),
  muted: rgb(0.35, 0.4, 0.5),
  amber: rgb(0.96, 0.49, 0.04),
  white: rgb(1, 1, 1),
} as const

const requireFont = createRequire(import.meta.url)
const FALLBACK_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf',
} as const
const fallbackBytes = new Map<string, Buffer>()
function fallbackFont(which: keyof typeof FALLBACK_FILES) {
  const file = FALLBACK_FILES[which]
  if (!fallbackBytes.has(file)) fallbackBytes.set(file, fs.readFileSync(requireFont.resolve(file)))
  return fallbackBytes.get(file)!
}

/** Each document's Helvetica → its DejaVu for what Helvetica lacks. */
const fallbacks = new WeakMap<PDFFont, PDFFont>()
const characterSets = new WeakMap<PDFFont, Set<number>>()
function has(font: PDFFont, codePoint: number) {
  if (!characterSets.has(font)) characterSets.set(font, new Set(font.getCharacterSet()))
  return characterSets.get(font)!.has(codePoint)
}

/** Spaces as plain spaces (a reader's search finds them); control characters dropped. */
export function pdfSafe(text: string) {
  const spaced = text.replace(/[\u00a0\u202f\t]/g, ' ')
  return [...spaced].filter((c) => !isControl(c.codePointAt(0)!)).join('')
}

const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code < 0xa0)

/** The text in runs of one font each: Helvetica's, its fallback's, "?" for what neither has. */
function runsOf(text: string, font: PDFFont) {
  const fallback = fallbacks.get(font)
  const runs: { text: string; font: PDFFont }[] = []
  for (const char of pdfSafe(text)) {
    const code = char.codePointAt(0)!
    const [glyph, by] = has(font, code)
      ? [char, font]
      : fallback && has(fallback, code)
        ? [char, fallback]
        : ['?', font]
    const last = runs.at(-1)
    if (last?.font === by) last.text += glyph
    else runs.push({ text: glyph, font: by })
  }
  return runs
}

/** The width of `text` as `text()` draws it. */
function widthOf(text: string, font: PDFFont, size: number) {
  return runsOf(text, font).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0)
}

/** Breaks text into lines no wider than `width` at `size` (a word longer than a line stays whole). */
export function wrap(text: string, font: PDFFont, size: number, width: number) {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(/\s+/)) {
      const candidate = line ? `${line} ${word}` : word
      if (widthOf(candidate, font, size) <= width || !line) line = candidate
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
  pdf.registerFontkit(fontkit)
  fallbacks.set(regular, await pdf.embedFont(fallbackFont('regular'), { subset: true }))
  fallbacks.set(bold, await pdf.embedFont(fallbackFont('bold'), { subset: true }))
  const text = (p: PDFPage, value: string, x: number, y: number, opts: TextOptions = {}) => {
    const size = opts.size ?? 10
    const color = opts.color ?? PDF_COLOURS.ink
    let at = opts.alignRight ? x - widthOf(value, opts.font ?? regular, size) : x
    for (const run of runsOf(value, opts.font ?? regular)) {
      p.drawText(run.text, { x: at, y, size, font: run.font, color })
      at += run.font.widthOfTextAtSize(run.text, size)
    }
  }
  return { pdf, page, regular, bold, text }
}

type DrawText = Awaited<ReturnType<typeof createA4Document>>['text']

/**
 * Label and value rows: the label in bold at `x`, the value wrapped to `right` from `valueX`
 * (`strong` labels' values in bold too). Returns the y below the last row.
 */
export function drawLabelledRows(
  page: PDFPage,
  draw: { text: DrawText; regular: PDFFont; bold: PDFFont },
  rows: [string, string][],
  at: { x: number; valueX: number; right: number; y: number; size?: number; strong?: string[] },
) {
  const size = at.size ?? 9.5
  let y = at.y
  for (const [label, value] of rows) {
    const font = at.strong?.includes(label) ? draw.bold : draw.regular
    draw.text(page, label, at.x, y, { font: draw.bold, size })
    for (const [k, line] of wrap(value, font, size, at.right - at.valueX).entries()) {
      if (k) y -= size + 2.5
      draw.text(page, line, at.valueX, y, { size, font })
    }
    y -= size + 4.5
  }
  return y
}
