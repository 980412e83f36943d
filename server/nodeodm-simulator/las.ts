/**
 * An uncompressed LAS 1.2 point cloud (point format 2: X, Y, Z, intensity, classification,
 * RGB) with its CRS as a GeoKeyDirectory VLR. No well-kept npm package writes LAZ (laz-perf's
 * JS build only decodes), so the simulator ships honest `.las`, never a mislabelled `.laz`.
 */

export interface LasPoint {
  x: number
  y: number
  z: number
  classification: number
  r: number
  g: number
  b: number
}

const HEADER_SIZE = 227
const RECORD_LENGTH = 26
const SCALE = 0.001

function geoKeyVlr(epsg: number) {
  // GeoKeyDirectoryTag: header (version 1.1.0, 4 keys) then keys (id, location 0, count 1, value).
  const keys = [
    [1, 1, 0, 4],
    [1024, 0, 1, 1], // GTModelTypeGeoKey: projected
    [1025, 0, 1, 1], // GTRasterTypeGeoKey: pixel is area
    [3072, 0, 1, epsg], // ProjectedCSTypeGeoKey
    [3076, 0, 1, 9001], // ProjLinearUnitsGeoKey: metre
  ].flat()
  const data = Buffer.alloc(keys.length * 2)
  keys.forEach((v, i) => data.writeUInt16LE(v, i * 2))
  const header = Buffer.alloc(54)
  header.write('LASF_Projection', 2, 'ascii')
  header.writeUInt16LE(34735, 18)
  header.writeUInt16LE(data.length, 20)
  header.write('GeoKeyDirectoryTag', 22, 'ascii')
  return Buffer.concat([header, data])
}

/** The whole file (points are few: the simulator keeps its cloud under 100,000 points). */
export function encodeLas(points: LasPoint[], epsg: number, created: Date) {
  const vlr = geoKeyVlr(epsg)
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  for (const p of points) {
    const v = [p.x, p.y, p.z]
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i]!, v[i]!)
      max[i] = Math.max(max[i]!, v[i]!)
    }
  }
  if (!points.length) {
    min.fill(0)
    max.fill(0)
  }
  const offset = min.map((m) => Math.floor(m))
  const header = Buffer.alloc(HEADER_SIZE)
  header.write('LASF', 0, 'ascii')
  header.writeUInt16LE(0, 4) // file source id
  header.writeUInt16LE(0, 6) // global encoding
  header.writeUInt8(1, 24) // version 1.2
  header.writeUInt8(2, 25)
  header.write('KESTREL SIMULATED', 26, 'ascii') // system identifier (32)
  header.write('SIMULATED PROCESSING', 58, 'ascii') // generating software (32)
  const start = Date.UTC(created.getUTCFullYear(), 0, 1)
  header.writeUInt16LE(Math.floor((created.getTime() - start) / 86_400_000) + 1, 90)
  header.writeUInt16LE(created.getUTCFullYear(), 92)
  header.writeUInt16LE(HEADER_SIZE, 94)
  header.writeUInt32LE(HEADER_SIZE + vlr.length, 96) // offset to point data
  header.writeUInt32LE(1, 100) // number of VLRs
  header.writeUInt8(2, 104) // point data format
  header.writeUInt16LE(RECORD_LENGTH, 105)
  header.writeUInt32LE(points.length, 107)
  const byReturn = [points.length, 0, 0, 0, 0]
  byReturn.forEach((n, i) => header.writeUInt32LE(n, 111 + i * 4))
  for (let i = 0; i < 3; i++) header.writeDoubleLE(SCALE, 131 + i * 8)
  for (let i = 0; i < 3; i++) header.writeDoubleLE(offset[i]!, 155 + i * 8)
  // max X, min X, max Y, min Y, max Z, min Z
  for (let i = 0; i < 3; i++) {
    header.writeDoubleLE(max[i]!, 179 + i * 16)
    header.writeDoubleLE(min[i]!, 187 + i * 16)
  }
  const body = Buffer.alloc(points.length * RECORD_LENGTH)
  points.forEach((p, i) => {
    const o = i * RECORD_LENGTH
    body.writeInt32LE(Math.round((p.x - offset[0]!) / SCALE), o)
    body.writeInt32LE(Math.round((p.y - offset[1]!) / SCALE), o + 4)
    body.writeInt32LE(Math.round((p.z - offset[2]!) / SCALE), o + 8)
    body.writeUInt16LE(Math.round(((p.r + p.g + p.b) / 765) * 65535), o + 12) // intensity
    body.writeUInt8(0b00001001, o + 14) // return 1 of 1
    body.writeUInt8(p.classification & 0x1f, o + 15)
    body.writeInt8(0, o + 16) // scan angle
    body.writeUInt8(0, o + 17) // user data
    body.writeUInt16LE(0, o + 18) // point source id
    body.writeUInt16LE(p.r * 257, o + 20)
    body.writeUInt16LE(p.g * 257, o + 22)
    body.writeUInt16LE(p.b * 257, o + 24)
  })
  return Buffer.concat([header, vlr, body])
}
