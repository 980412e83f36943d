/** The text drawn on a pdf-lib PDF (standard fonts write hex strings into flate streams). */
import { unzlibSync } from 'fflate'
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib'

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes)
  const parts: string[] = []
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue
    const filter = object.dict.get(PDFName.of('Filter'))
    let raw: Uint8Array
    try {
      raw = filter === PDFName.of('FlateDecode') ? unzlibSync(object.contents) : object.contents
    } catch {
      continue
    }
    const content = new TextDecoder('latin1').decode(raw)
    for (const match of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      const hex = match[1]!
      let text = ''
      for (let i = 0; i < hex.length; i += 2) text += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16))
      parts.push(text)
    }
  }
  return parts.join('\n')
}
