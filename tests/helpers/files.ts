/** Real file contents for upload tests (each recognisable by its magic bytes). */

import { PDFDocument } from 'pdf-lib'

/** A 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

/** A real one-page PDF with some text. */
export async function pdfBytes(text = 'Signed land owner permission') {
  const doc = await PDFDocument.create()
  const page = doc.addPage([300, 200])
  page.drawText(text, { x: 20, y: 100, size: 12 })
  return Buffer.from(await doc.save())
}

/** An MP4 header (ftyp box) followed by `size` bytes in all. */
export function mp4Bytes(size = 4096) {
  const buf = Buffer.alloc(size)
  Buffer.from([
    0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 0, 0, 0, 0, 0x6d, 0x70, 0x34, 0x32, 0x69,
    0x73, 0x6f, 0x6d,
  ]).copy(buf)
  for (let i = 24; i < size; i++) buf[i] = i % 251
  return buf
}

/** A PDF-looking file of `size` bytes (header, then padding): for size limits. */
export function bigPdfBytes(size: number) {
  const buf = Buffer.alloc(size, 0x20)
  Buffer.from('%PDF-1.7\n').copy(buf)
  return buf
}

export function multipart(
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array; type?: string },
) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  if (file)
    form.append(
      'file',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    )
  return form
}
