/**
 * A textured glTF 2.0 binary (GLB): one mesh (positions, normals, texture coordinates,
 * 32-bit indices) with the orthophoto as its PNG base-colour texture. glTF is Y-up: east is
 * +X, up is +Y, north is −Z, in metres from `origin` (kept in `extras` with the CRS).
 */

export interface Mesh {
  /** x (east), y (north), z (up) in metres, relative to `origin`. */
  positions: Float32Array
  uvs: Float32Array
  indices: Uint32Array
}

export interface GlbMeta {
  origin: [number, number, number]
  epsg: number
  texturePng: Buffer
}

function pad4(buffer: Buffer, fill: number) {
  const rest = buffer.length % 4
  return rest ? Buffer.concat([buffer, Buffer.alloc(4 - rest, fill)]) : buffer
}

function normalsOf(positions: Float32Array, indices: Uint32Array) {
  const normals = new Float32Array(positions.length)
  for (let i = 0; i < indices.length; i += 3) {
    const [a, b, c] = [indices[i]! * 3, indices[i + 1]! * 3, indices[i + 2]! * 3]
    const ux = positions[b]! - positions[a]!
    const uy = positions[b + 1]! - positions[a + 1]!
    const uz = positions[b + 2]! - positions[a + 2]!
    const vx = positions[c]! - positions[a]!
    const vy = positions[c + 1]! - positions[a + 1]!
    const vz = positions[c + 2]! - positions[a + 2]!
    const n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx]
    for (const k of [a, b, c]) for (let j = 0; j < 3; j++) normals[k + j]! += n[j]!
  }
  for (let i = 0; i < normals.length; i += 3) {
    const len = Math.hypot(normals[i]!, normals[i + 1]!, normals[i + 2]!) || 1
    normals[i] = normals[i]! / len
    normals[i + 1] = normals[i + 1]! / len
    normals[i + 2] = normals[i + 2]! / len
  }
  return normals
}

export function encodeGlb(mesh: Mesh, meta: GlbMeta) {
  // East-north-up → glTF's X right, Y up, Z towards the viewer (south).
  const count = mesh.positions.length / 3
  const positions = new Float32Array(mesh.positions.length)
  for (let i = 0; i < count; i++) {
    positions[i * 3] = mesh.positions[i * 3]!
    positions[i * 3 + 1] = mesh.positions[i * 3 + 2]!
    positions[i * 3 + 2] = -mesh.positions[i * 3 + 1]!
  }
  const normals = normalsOf(positions, mesh.indices)
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, positions[i]!)
    max[i % 3] = Math.max(max[i % 3]!, positions[i]!)
  }
  let maxIndex = 0
  for (const i of mesh.indices) maxIndex = Math.max(maxIndex, i)

  const parts = [
    Buffer.from(positions.buffer, positions.byteOffset, positions.byteLength),
    Buffer.from(normals.buffer, normals.byteOffset, normals.byteLength),
    Buffer.from(mesh.uvs.buffer, mesh.uvs.byteOffset, mesh.uvs.byteLength),
    Buffer.from(mesh.indices.buffer, mesh.indices.byteOffset, mesh.indices.byteLength),
    meta.texturePng,
  ].map((b) => pad4(b, 0))
  const offsets: number[] = []
  let at = 0
  for (const part of parts) {
    offsets.push(at)
    at += part.length
  }
  const bin = Buffer.concat(parts)
  const view = (i: number, byteLength: number, target?: number) => ({
    buffer: 0,
    byteOffset: offsets[i],
    byteLength,
    ...(target ? { target } : {}),
  })

  const json = {
    asset: {
      version: '2.0',
      generator: 'Kestrel NodeODM simulator (SIMULATED PROCESSING)',
      extras: { simulated: true, note: 'SIMULATED PROCESSING: a made-up model, not a survey' },
    },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [
      {
        mesh: 0,
        name: 'odm_textured_model_geo',
        extras: { crs: `EPSG:${meta.epsg}`, originEastNorthUp: meta.origin },
      },
    ],
    meshes: [
      {
        primitives: [
          { attributes: { POSITION: 0, NORMAL: 1, TEXCOORD_0: 2 }, indices: 3, material: 0, mode: 4 },
        ],
      },
    ],
    materials: [
      {
        name: 'orthophoto',
        pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 1 },
        doubleSided: true,
      },
    ],
    textures: [{ source: 0, sampler: 0 }],
    samplers: [{ magFilter: 9729, minFilter: 9987, wrapS: 33071, wrapT: 33071 }],
    images: [{ bufferView: 4, mimeType: 'image/png' }],
    accessors: [
      { bufferView: 0, componentType: 5126, count, type: 'VEC3', min, max },
      { bufferView: 1, componentType: 5126, count, type: 'VEC3' },
      { bufferView: 2, componentType: 5126, count, type: 'VEC2' },
      {
        bufferView: 3,
        componentType: 5125,
        count: mesh.indices.length,
        type: 'SCALAR',
        min: [0],
        max: [maxIndex],
      },
    ],
    bufferViews: [
      view(0, positions.byteLength, 34962),
      view(1, normals.byteLength, 34962),
      view(2, mesh.uvs.byteLength, 34962),
      view(3, mesh.indices.byteLength, 34963),
      view(4, meta.texturePng.length),
    ],
    buffers: [{ byteLength: bin.length }],
  }
  const jsonChunk = pad4(Buffer.from(JSON.stringify(json), 'utf8'), 0x20)
  const header = Buffer.alloc(12)
  header.writeUInt32LE(0x46546c67, 0) // 'glTF'
  header.writeUInt32LE(2, 4)
  header.writeUInt32LE(12 + 8 + jsonChunk.length + 8 + bin.length, 8)
  const jsonHeader = Buffer.alloc(8)
  jsonHeader.writeUInt32LE(jsonChunk.length, 0)
  jsonHeader.writeUInt32LE(0x4e4f534a, 4) // 'JSON'
  const binHeader = Buffer.alloc(8)
  binHeader.writeUInt32LE(bin.length, 0)
  binHeader.writeUInt32LE(0x004e4942, 4) // 'BIN\0'
  return Buffer.concat([header, jsonHeader, jsonChunk, binHeader, bin])
}
