import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { formatRand } from '#app/lib/format/numbers.ts'
import { StandardFonts } from 'pdf-lib'
import { describe, expect, test } from 'vitest'

import { createA4Document, pdfSafe, wrap } from './a4-document.server.ts'

const run = promisify(execFile)

async function saved(bytes: Uint8Array) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'a4-')), 'doc.pdf')
  fs.writeFileSync(file, bytes)
  return file
}

async function pdftotext(bytes: Uint8Array) {
  return (await run('pdftotext', [await saved(bytes), '-'], { encoding: 'utf8' })).stdout
}

describe('pdfSafe', () => {
  test('rand amounts are written like everywhere else, their no-break spaces as spaces', () => {
    expect(pdfSafe(formatRand(123456789))).toBe('R 1 234 567,89')
    expect(pdfSafe(formatRand(5))).toBe('R 0,05')
  })

  test('typographic punctuation and accents stay; control characters go', () => {
    expect(pdfSafe('“Kestrel’s” – survey ✓')).toBe('“Kestrel’s” – survey ✓')
    expect(pdfSafe('Ümhlanga\u0007 café')).toBe('Ümhlanga café')
  })
})

describe('text Helvetica cannot encode', () => {
  test('is drawn in the embedded DejaVu (pdftotext reads it back); what neither font has is ?', async () => {
    const { pdf, page, text, bold } = await createA4Document({
      title: 'T',
      author: 'A',
      subject: 'S',
      createdAt: new Date(Date.UTC(2026, 0, 1)),
    })
    text(page, 'Pile A – east ✓ (≤ 2 %) → checked', 50, 700)
    text(page, 'Bold ✓ total – R 1 234,56', 545, 680, { font: bold, alignRight: true })
    text(page, 'drone 🚁 map', 50, 660)
    const read = await pdftotext(await pdf.save())
    expect(read).toContain('Pile A – east ✓ (≤ 2 %) → checked')
    expect(read).toContain('Bold ✓ total – R 1 234,56')
    expect(read).toContain('drone ? map')
    const bytes = await pdf.save()
    const fonts = await run('pdffonts', [await saved(bytes)], { encoding: 'utf8' })
    expect(fonts.stdout).toMatch(/DejaVuSansCondensed-\d+\s+CID TrueType\s+Identity-H\s+yes/)
    expect(fonts.stdout).toMatch(/DejaVuSansCondensed-Bold-\d+\s+CID TrueType/)
    // Only the glyphs used are embedded (the whole font is over 600 kB).
    expect(bytes.length).toBeLessThan(40_000)
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
