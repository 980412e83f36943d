import { formatRand } from '#app/lib/format/numbers.ts'
import { StandardFonts } from 'pdf-lib'
import { describe, expect, test } from 'vitest'

import { createA4Document, pdfSafe, wrap } from './a4-document.server.ts'

describe('pdfSafe', () => {
  test('rand amounts are written like everywhere else and survive the standard font', () => {
    expect(pdfSafe(formatRand(123456789))).toBe('R 1 234 567,89')
    expect(pdfSafe(formatRand(5))).toBe('R 0,05')
  })

  test('typographic punctuation becomes its plain form; what WinAnsi lacks becomes ?', () => {
    expect(pdfSafe('“Kestrel’s” – survey')).toBe('"Kestrel\'s" - survey')
    expect(pdfSafe('Ümhlanga café')).toBe('Ümhlanga café')
    expect(pdfSafe('drone 🚁 map')).toBe('drone ?? map')
  })
})

describe('createA4Document and wrap', () => {
  test('one A4 page with the metadata, and lines no wider than asked', async () => {
    const createdAt = new Date(Date.UTC(2026, 0, 1))
    const { pdf, page, text } = await createA4Document({ title: 'T', author: 'A', subject: 'S', createdAt })
    expect(pdf.getPageCount()).toBe(1)
    expect(page.getSize()).toEqual({ width: 595.28, height: 841.89 })
    expect(pdf.getTitle()).toBe('T')
    expect(pdf.getModificationDate()?.toISOString()).toBe(createdAt.toISOString())
    text(page, 'Right-aligned – total', 545, 700, { alignRight: true })

    const font = await pdf.embedFont(StandardFonts.Helvetica)
    const lines = wrap('one two three four five six seven eight nine ten\nnext paragraph', font, 10, 80)
    expect(lines.length).toBeGreaterThan(3)
    expect(lines.at(-1)).toBe('next paragraph')
    for (const line of lines.slice(0, -1)) expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(80)
    // A word longer than the width stays whole on its own line.
    expect(wrap('Supercalifragilistic', font, 10, 20)).toEqual(['Supercalifragilistic'])
  })
})
