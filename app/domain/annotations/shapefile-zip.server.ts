/**
 * The zipped Shapefile of the notes: each geometry type's .shp, .shx, .dbf, .prj and .cpg, and,
 * when a title or note is longer than a .dbf text column holds (254 bytes), `notes_full_text.txt`
 * with those notes in full (the .dbf keeps the cut text). Written to disk, file by file.
 */
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { ZipArchive } from 'archiver'

import type { AnnotationView } from './annotation-schemas.ts'

/** A .dbf text column's bytes. */
const DBF_TEXT_BYTES = 254
const FULL_TEXT_NAME = 'notes_full_text.txt'

const tooLong = (text: string) => Buffer.byteLength(text, 'utf8') > DBF_TEXT_BYTES

/** The notes whose title, note or author the .dbf cuts, in full; null when none is cut. */
async function writeFullText(file: string, notes: Iterable<AnnotationView>) {
  const out = fs.createWriteStream(file, { encoding: 'utf8' })
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  let cut = 0
  for (const n of notes) {
    if (![n.title, n.note, n.authorName].some(tooLong)) continue
    if (!cut)
      await write(
        `A shapefile's text columns hold at most ${DBF_TEXT_BYTES} bytes: these notes are cut there (columns title, note, author) and given here in full.\n`,
      )
    cut++
    await write(
      `\n--- id ${n.id} (${n.kind})\ntitle: ${n.title}\nauthor: ${n.authorName}\nnote:\n${n.note}\n`,
    )
  }
  out.end()
  await once(out, 'finish')
  return cut ? file : null
}

export async function zipShapefiles(
  dir: string,
  layers: { layer: string }[],
  notes: () => Iterable<AnnotationView>,
) {
  const zipPath = path.join(dir, 'notes.zip')
  const archive = new ZipArchive({ zlib: { level: 6 } })
  const out = fs.createWriteStream(zipPath)
  archive.pipe(out)
  const failed = new Promise<never>((_, reject) => {
    archive.on('error', reject)
    out.on('error', reject)
  })
  for (const { layer } of layers)
    for (const part of ['shp', 'shx', 'dbf', 'prj', 'cpg']) {
      const file = path.join(dir, `${layer}.${part}`)
      if (fs.existsSync(file)) archive.file(file, { name: `${layer}.${part}` })
    }
  if (!layers.length) archive.append('This project has no notes yet.\n', { name: 'README.txt' })
  const fullText = await writeFullText(path.join(dir, FULL_TEXT_NAME), notes())
  if (fullText) archive.file(fullText, { name: FULL_TEXT_NAME })
  await Promise.race([archive.finalize(), failed])
  await Promise.race([once(out, 'close'), failed])
  return zipPath
}
