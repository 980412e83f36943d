/**
 * The simulator's multipart reader against busboy (what NodeODM's multer runs) on the same
 * bodies cut into chunks at every size that matters: the same fields, file names and bytes,
 * however the boundary falls across chunks; lookalikes of the boundary inside a file; an
 * unfinished form.
 */
import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'
import { describe, expect, test } from 'vitest'

import { boundaryOf, MultipartError, readMultipart } from './multipart.ts'

const BOUNDARY = '----kestrelBoundary7f3a'

interface Parsed {
  fields: Array<[string, string]>
  files: Array<{ field: string; filename: string; sha256: string; bytes: number }>
}

function body(parts: Array<{ name: string; filename?: string; data: Buffer | string }>, epilogue = '') {
  const chunks: Buffer[] = [Buffer.from('preamble to ignore\r\n')]
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\nContent-Type: image/jpeg\r\n\r\n`),
    )
    chunks.push(Buffer.from(p.data))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n${epilogue}`))
  return Buffer.concat(chunks)
}

function* cut(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

async function ours(bytes: Buffer, size: number): Promise<Parsed> {
  const parsed: Parsed = { fields: [], files: [] }
  await readMultipart(
    Readable.from(cut(bytes, size)),
    BOUNDARY,
    {
      field: (name, value) => void parsed.fields.push([name, value]),
      file({ field, filename }) {
        const hash = crypto.createHash('sha256')
        let count = 0
        return {
          write(data) {
            hash.update(data)
            count += data.length
          },
          end() {
            parsed.files.push({ field, filename, sha256: hash.digest('hex'), bytes: count })
          },
        }
      },
    },
    { fieldBytes: 1024 * 1024 },
  )
  return parsed
}

async function theirs(bytes: Buffer): Promise<Parsed> {
  const parsed: Parsed = { fields: [], files: [] }
  const parser = busboy({ headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } })
  parser.on('field', (name, value) => parsed.fields.push([name, value]))
  parser.on('file', (field, stream, info) => {
    const hash = crypto.createHash('sha256')
    let count = 0
    stream.on('data', (d: Buffer) => {
      hash.update(d)
      count += d.length
    })
    stream.on('end', () =>
      parsed.files.push({ field, filename: info.filename ?? '', sha256: hash.digest('hex'), bytes: count }),
    )
  })
  await pipeline(Readable.from([bytes]), parser)
  return parsed
}

describe('the simulator’s multipart reader', () => {
  test('reads what busboy reads, wherever the chunks are cut', async () => {
    // A file whose bytes hold near-misses of the delimiter, across any cut.
    const lookalike = Buffer.concat([
      crypto.randomBytes(3000),
      Buffer.from(`\r\n--${BOUNDARY.slice(0, -1)}X`),
      crypto.randomBytes(500),
      Buffer.from(`\r\n-`),
      crypto.randomBytes(7),
      Buffer.from('\r\n'),
    ])
    const form = body(
      [
        { name: 'name', data: 'Survey of Erf 123' },
        { name: 'options', data: '[{"name":"dsm","value":true}]' },
        { name: 'images', filename: 'DJI_0001.JPG', data: lookalike },
        { name: 'images', filename: 'empty.JPG', data: '' },
        { name: 'images', filename: '../../up/DJI_0002.JPG', data: crypto.randomBytes(70_000) },
        { name: 'images', filename: 'C:\\photos\\DJI_0003.JPG', data: crypto.randomBytes(10) },
      ],
      'an epilogue to ignore',
    )
    const expected = await theirs(form)
    expect(expected.files.map((f) => f.filename)).toEqual([
      'DJI_0001.JPG',
      'empty.JPG',
      'DJI_0002.JPG',
      'DJI_0003.JPG',
    ])
    for (const size of [1, 2, 3, 7, 13, 44, 45, 46, 47, 64, 1000, 4096, 65_536, form.length])
      expect(await ours(form, size), `chunks of ${size}`).toEqual(expected)
  })

  test('an unfinished form is an error; a part without a name is skipped', async () => {
    const form = body([{ name: 'images', filename: 'a.jpg', data: 'abc' }])
    await expect(ours(form.subarray(0, form.length - 10), 5)).rejects.toBeInstanceOf(MultipartError)
    const nameless = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; filename="x.jpg"\r\n\r\nxyz\r\n--${BOUNDARY}--\r\n`,
    )
    expect(await ours(nameless, 4)).toEqual({ fields: [], files: [] })
  })

  test('the boundary from the Content-Type, quoted or not', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc')
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b;c"')).toBe('a b;c')
    expect(boundaryOf('application/json')).toBeNull()
    expect(boundaryOf('multipart/form-data')).toBeNull()
  })
})
