/**
 * What a deliverable is, from its bytes (ADR 230): magic numbers through `file-type`,
 * plus the survey formats it does not know — LAS/LAZ/COPC headers, KML, GeoJSON, DXF, CSV,
 * PLY — and a ZIP's central directory (KMZ, shapefile, 3D model). The name only decides
 * between look-alikes (a `.doc` OLE file, a `.txt`). Rasters get their final kind from
 * GDAL (raster-info.server.ts); a TIFF starts as `image`.
 */
import fs from 'node:fs'
import { extensionOf } from '#app/domain/files/rules.ts'
import type { DeliverableKind } from '#db/schema.ts'
import { fileTypeFromFile } from 'file-type'

import { zipEntryNames } from './zip-entries.server.ts'

export interface DetectedDeliverable {
  mime: string
  ext: string
  kind: DeliverableKind
}

const HEAD_BYTES = 64 * 1024

async function readHead(file: string) {
  const handle = await fs.promises.open(file, 'r')
  try {
    const buf = Buffer.alloc(HEAD_BYTES)
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** LAS 1.0–1.4 (`LASF`); LAZ sets bit 7 of the point format byte; COPC's first VLR is `copc`. */
function lasType(head: Buffer): DetectedDeliverable | null {
  if (head.length < 227 || head.toString('latin1', 0, 4) !== 'LASF') return null
  const compressed = (head[104]! & 0x80) !== 0
  const headerSize = head.readUInt16LE(94)
  const firstVlrUser =
    head.length >= headerSize + 18
      ? head
          .toString('latin1', headerSize + 2, headerSize + 18)
          .replace(/\0+$/, '')
          .trim()
      : ''
  if (compressed || firstVlrUser === 'copc')
    return { mime: 'application/vnd.laszip', ext: 'laz', kind: 'point_cloud' }
  return { mime: 'application/vnd.las', ext: 'las', kind: 'point_cloud' }
}

const MODEL_EXTENSIONS = new Set([
  'obj',
  'mtl',
  'glb',
  'gltf',
  'ply',
  'fbx',
  'dae',
  '3ds',
  'stl',
  'b3dm',
  'osgb',
  'i3s',
])
const VECTOR_EXTENSIONS = new Set(['shp', 'kml', 'geojson', 'gpkg', 'dxf'])

function kindOfZip(names: string[]): DetectedDeliverable {
  const exts = names.map((n) => extensionOf(n))
  if (names.some((n) => n.toLowerCase() === 'doc.kml') || (exts.includes('kml') && exts.length <= 20))
    return { mime: 'application/vnd.google-earth.kmz', ext: 'kmz', kind: 'vector' }
  const zip = { mime: 'application/zip', ext: 'zip' }
  if (exts.some((e) => MODEL_EXTENSIONS.has(e)) || names.some((n) => /(^|\/)tileset\.json$/i.test(n)))
    return { ...zip, kind: 'model_3d' }
  if (exts.some((e) => VECTOR_EXTENSIONS.has(e))) return { ...zip, kind: 'vector' }
  if (exts.some((e) => e === 'las' || e === 'laz')) return { ...zip, kind: 'point_cloud' }
  if (exts.some((e) => e === 'tif' || e === 'tiff')) return { ...zip, kind: 'orthomosaic' }
  return { ...zip, kind: 'other' }
}

function asText(head: Buffer): string | null {
  if (head.includes(0)) return null
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head)
  // A cut multi-byte character at the very end of the sample is not a binary file.
  return text.slice(0, -4).includes('\uFFFD') ? null : text.replace(/^\uFEFF/, '')
}

const GEOJSON_TYPES =
  /"type"\s*:\s*"(FeatureCollection|Feature|Polygon|MultiPolygon|Point|MultiPoint|LineString|MultiLineString|GeometryCollection)"/

/** Text formats: KML, GeoJSON, DXF, PLY, OBJ, CSV (and plain text only when named `.txt`). */
function textType(text: string, nameExt: string): DetectedDeliverable | null {
  const start = text.trimStart().slice(0, 4096)
  if (/<kml[\s>]/.test(start))
    return { mime: 'application/vnd.google-earth.kml+xml', ext: 'kml', kind: 'vector' }
  if (start.startsWith('{') && GEOJSON_TYPES.test(text))
    return { mime: 'application/geo+json', ext: 'geojson', kind: 'vector' }
  if (/^0\r?\n\s*SECTION\r?\n/.test(start)) return { mime: 'image/vnd.dxf', ext: 'dxf', kind: 'vector' }
  if (/^ply\r?\n/.test(start)) return { mime: 'model/ply', ext: 'ply', kind: 'model_3d' }
  if (nameExt === 'obj' && /^v\s+-?\d/m.test(start))
    return { mime: 'model/obj', ext: 'obj', kind: 'model_3d' }
  if (looksLikeCsv(text)) return { mime: 'text/csv', ext: 'csv', kind: 'other' }
  if (nameExt === 'txt') return { mime: 'text/plain', ext: 'txt', kind: 'other' }
  return null
}

/** At least two lines with the same number (≥ 2) of comma-, semicolon- or tab-separated fields. */
function looksLikeCsv(text: string) {
  const lines = text
    .split(/\r?\n/, 21)
    .slice(0, 20)
    .filter((l) => l.trim())
  if (lines.length < 2) return false
  return [',', ';', '\t'].some((sep) => {
    const counts = lines.slice(0, -1).map((l) => l.split(sep).length)
    return counts[0]! >= 2 && counts.every((c) => c === counts[0])
  })
}

/** The deliverable's type and first kind by content, or null when it is none we accept. */
export async function detectDeliverable(
  file: string,
  originalName: string,
): Promise<DetectedDeliverable | null> {
  const nameExt = extensionOf(originalName)
  const head = await readHead(file)
  const las = lasType(head)
  if (las) return las
  const found = await fileTypeFromFile(file)
  if (found) {
    const { mime, ext } = found
    if (ext === 'tif') return { mime, ext, kind: 'image' }
    if (ext === 'zip') return kindOfZip((await zipEntryNames(file)) ?? [])
    if (ext === 'docx' || ext === 'pdf') return { mime, ext, kind: 'report' }
    if (ext === 'cfb')
      return nameExt === 'doc' ? { mime: 'application/msword', ext: 'doc', kind: 'report' } : null
    if (ext === 'glb' || ext === 'stl' || ext === '3mf' || ext === 'fbx')
      return { mime, ext, kind: 'model_3d' }
    if (ext === 'shp') return { mime, ext, kind: 'vector' }
    if (ext === 'xml') {
      const text = asText(head)
      return text ? textType(text, nameExt) : null
    }
    if (mime.startsWith('image/')) return { mime, ext, kind: 'image' }
    if (mime.startsWith('video/')) return { mime, ext, kind: 'video' }
    return { mime, ext, kind: 'other' }
  }
  const text = asText(head)
  return text === null ? null : textType(text, nameExt)
}
