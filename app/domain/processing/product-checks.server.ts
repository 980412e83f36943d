/**
 * A product's content checked before it is kept: its first bytes as the entry streams out
 * (so a 2 GiB entry of the wrong kind is never unpacked), JSON parsed whole only under a
 * bound, and a GeoTIFF opened by GDAL once it is on disk. Each check answers the reason a
 * product is skipped ("not a glTF model"), or null when it is good.
 */
import { gdalInfoJson } from '#app/domain/deliverables/raster-info.server.ts'

import type { ProductCheck } from './archive-products.ts'

export type ContentCheck = ProductCheck | 'tileset' | 'mtl' | 'texture'

const HEAD_BYTES = 64 * 1024
/** JSON (camera positions, tilesets) and MTL files are parsed whole, so they are bounded. */
const MAX_PARSED_BYTES = 16 * 1024 * 1024
const PARSED: ReadonlySet<ContentCheck> = new Set(['geojson', 'tileset', 'mtl'])
const LAS_HEADER_BYTES = 227

const PROBLEMS: Record<ContentCheck, string> = {
  geotiff: 'not a GeoTIFF',
  las: 'not a LAS/LAZ point cloud',
  glb: 'not a glTF model',
  obj: 'not an OBJ model',
  pdf: 'not a PDF',
  geojson: 'not GeoJSON',
  tileset: 'not a 3D Tiles tileset',
  mtl: 'not an OBJ material library',
  texture: 'not a JPEG or PNG image',
}

const GEOJSON_TYPES = new Set([
  'FeatureCollection',
  'Feature',
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
])

/** How many first bytes the check needs (the whole entry for what is parsed). */
export function headLength(check: ContentCheck, size: number) {
  return Math.min(size, PARSED.has(check) ? MAX_PARSED_BYTES : HEAD_BYTES)
}

/** "5 bytes: not a glTF model", as the job records a skip. */
export function skipReason(size: number, problem: string) {
  return `${size === 1 ? '1 byte' : `${size} bytes`}: ${problem}`
}

/** A problem the directory's size alone shows (empty; too big to parse), else null. */
export function sizeProblem(check: ContentCheck, size: number) {
  if (size === 0) return 'empty'
  if (PARSED.has(check) && size > MAX_PARSED_BYTES)
    return `more than ${MAX_PARSED_BYTES / 1024 / 1024} MB: too large to read`
  return null
}

function isText(head: Buffer) {
  if (head.includes(0)) return null
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head)
  // A multi-byte character cut at the end of the sample is still text.
  return text.slice(0, -4).includes('\uFFFD') ? null : text.replace(/^\uFEFF/, '')
}

function parseJson(head: Buffer): unknown {
  const text = isText(head)
  if (text === null || !text.trimStart().startsWith('{')) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

/** TIFF and BigTIFF, either byte order. */
function isTiff(head: Buffer) {
  const magic = head.toString('latin1', 0, 4)
  return magic === 'II*\0' || magic === 'MM\0*' || magic === 'II+\0' || magic === 'MM\0+'
}

/** LAS 1.0–1.4 (LAZ and COPC share the header): its sizes inside the file. */
function isLas(head: Buffer, size: number) {
  if (head.length < LAS_HEADER_BYTES || head.toString('latin1', 0, 4) !== 'LASF') return false
  const [major, minor] = [head[24]!, head[25]!]
  const headerSize = head.readUInt16LE(94)
  const pointsAt = head.readUInt32LE(96)
  return (
    major === 1 && minor <= 4 && headerSize >= LAS_HEADER_BYTES && pointsAt >= headerSize && pointsAt <= size
  )
}

/** glTF 2.0 binary: magic, version, the length it states is the entry's, a JSON chunk first. */
function isGlb(head: Buffer, size: number) {
  if (head.length < 20 || head.toString('latin1', 0, 4) !== 'glTF') return false
  const jsonLength = head.readUInt32LE(12)
  return (
    head.readUInt32LE(4) === 2 &&
    head.readUInt32LE(8) === size &&
    head.toString('latin1', 16, 20) === 'JSON' &&
    jsonLength > 0 &&
    20 + jsonLength <= size
  )
}

/** Text with vertices (ODM's OBJ opens with `mtllib`, then `v` lines). */
function isObj(head: Buffer) {
  const text = isText(head)
  return text !== null && /^v\s+[-+.\d]/m.test(text)
}

function isTexture(head: Buffer) {
  const png = head.length >= 8 && head.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))
  const jpeg = head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff
  return png || jpeg
}

function passes(check: ContentCheck, head: Buffer, size: number) {
  switch (check) {
    case 'geotiff':
      return isTiff(head)
    case 'las':
      return isLas(head, size)
    case 'glb':
      return isGlb(head, size)
    case 'obj':
      return isObj(head)
    case 'pdf':
      return head.toString('latin1', 0, 5) === '%PDF-'
    case 'geojson': {
      const value = parseJson(head) as { type?: unknown } | null
      return typeof value?.type === 'string' && GEOJSON_TYPES.has(value.type)
    }
    case 'tileset': {
      const value = parseJson(head) as { asset?: { version?: unknown } } | null
      return typeof value?.asset?.version === 'string'
    }
    case 'mtl': {
      const text = isText(head)
      return text !== null && /^\s*newmtl\s+\S/m.test(text)
    }
    case 'texture':
      return isTexture(head)
  }
}

/** The reason the first bytes (the whole entry for what is parsed) refuse the product, or null. */
export function headProblem(check: ContentCheck, head: Buffer, size: number) {
  return passes(check, head, size) ? null : PROBLEMS[check]
}

/** What only the whole file shows: GDAL must open a GeoTIFF and find its place on Earth. */
export async function fileProblem(check: ContentCheck, file: string, signal?: AbortSignal) {
  if (check !== 'geotiff') return null
  try {
    const info = await gdalInfoJson(file, { owner: 'conversion', signal })
    const ring = info.wgs84Extent?.coordinates?.[0]
    if (!info.size?.[0] || !info.size[1] || !ring || ring.length < 4) return 'not a georeferenced GeoTIFF'
    return null
  } catch (error) {
    if (signal?.aborted) throw error
    return 'not a readable GeoTIFF'
  }
}

/** The texture files an MTL names (`map_Kd texture_0.jpg`…), relative to its folder, without `..`. */
export function mtlTextures(mtl: Buffer) {
  const names = new Set<string>()
  const text = isText(mtl) ?? ''
  for (const line of text.split(/\r?\n/, 100_000)) {
    if (line.length > 600) continue
    const match = /^\s*(?:map_\w+|bump|disp|decal|refl)\s+(.{1,500})$/.exec(line)
    // Options (`-s 1 1 1`) come first: the file name is the last word.
    const name = match?.[1]!.trim().split(/\s+/).pop()?.replace(/\\/g, '/')
    if (!name || name.startsWith('/') || name.split('/').includes('..')) continue
    names.add(name)
  }
  return [...names]
}
