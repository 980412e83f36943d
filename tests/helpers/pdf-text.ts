/**
 * The text a PDF shows, read by poppler's `pdftotext -layout` (a table's row stays one line): the
 * standard fonts' WinAnsi and the embedded DejaVu's glyphs alike, no-break spaces as spaces.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pdf-text-'))
  try {
    const file = path.join(dir, 'document.pdf')
    await fs.writeFile(file, bytes)
    const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], {
      encoding: 'utf8',
      timeout: 30_000,
      maxBuffer: 16 * 1024 * 1024,
    })
    return stdout.replace(/\u00a0/g, ' ')
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
}
