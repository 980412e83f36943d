/**
 * The notes' DXF, finished after ogr2ogr: each title GDAL wrote as an MTEXT becomes a TEXT
 * entity (read by every CAD program, R12 ones too), and a comment at the top names the CRS
 * (DXF carries none); a Lo system's south-west orientated axes are said there and in a TEXT
 * on layer NOTES_CRS. Streamed line by line (latin1 in and out: the DXF's own code page).
 */
import { once } from 'node:events'
import fs from 'node:fs'
import readline from 'node:readline'

/** Hartebeesthoek94 / Lo15–Lo33 (EPSG:2046–2055) and Cape / Lo15–Lo33 (EPSG:22275–22293, odd codes). */
export function loZoneOf(epsg: number) {
  if (epsg >= 2046 && epsg <= 2055) return { datum: 'Hartebeesthoek94', lo: 15 + 2 * (epsg - 2046) }
  if (epsg >= 22275 && epsg <= 22293 && epsg % 2 === 1) return { datum: 'Cape', lo: 15 + (epsg - 22275) }
  return null
}

/** What a CAD user must know of the coordinates (one sentence; a Lo system's axes named). */
export function crsNote(epsg: number) {
  const lo = loZoneOf(epsg)
  if (!lo) return `Coordinates in EPSG:${epsg}.`
  return `Coordinates in ${lo.datum} / Lo${lo.lo} (EPSG:${epsg}): x is the westing and y the southing, so the axes are south-west orientated and a drawing with x to the right and y up shows the site turned 180 degrees.`
}

/** An MTEXT's text as plain text (GDAL escapes spaces as \~ and backslashes as \\). */
const plainText = (mtext: string) =>
  mtext.replace(/\\([~P\\{}])/g, (_, c: string) => (c === '~' || c === 'P' ? ' ' : c))

type Pair = [code: string, value: string]

function textEntity(pairs: Pair[]): Pair[] {
  const get = (code: string) => pairs.find(([c]) => c.trim() === code)?.[1] ?? ''
  return [
    ['  0', 'TEXT'],
    ['  5', get('5')],
    ['100', 'AcDbEntity'],
    ['  8', get('8')],
    ['100', 'AcDbText'],
    [' 10', get('10') || '0'],
    [' 20', get('20') || '0'],
    [' 30', get('30') || '0'],
    [' 40', get('40') || '1'],
    ['  1', plainText(get('1'))],
    ['  7', get('7') || 'STANDARD'],
    ['100', 'AcDbText'],
  ]
}

/** Rewrites `source` into `target`: titles as TEXT, the CRS comment first. */
export async function finishDxf(source: string, target: string, epsg: number) {
  const out = fs.createWriteStream(target, { encoding: 'latin1' })
  const write = async (text: string) => {
    if (!out.write(text, 'latin1')) await once(out, 'drain')
  }
  const comment = crsNote(epsg).replace(/[^\x20-\x7e]/g, ' ')
  await write(`999\n${comment}\n`)
  const lines = readline.createInterface({ input: fs.createReadStream(source, { encoding: 'latin1' }) })
  let code: string | null = null
  let entity: Pair[] | null = null
  const flush = async (pairs: Pair[]) => {
    for (const [c, v] of pairs) await write(`${c}\n${v}\n`)
  }
  for await (const line of lines) {
    if (code === null) {
      code = line
      continue
    }
    const pair: Pair = [code, line]
    code = null
    if (pair[0].trim() === '0') {
      if (entity) await flush(textEntity(entity))
      entity = pair[1] === 'MTEXT' ? [pair] : null
      if (!entity) await flush([pair])
    } else if (entity) entity.push(pair)
    else await flush([pair])
  }
  if (entity) await flush(textEntity(entity))
  out.end()
  await once(out, 'finish')
}
