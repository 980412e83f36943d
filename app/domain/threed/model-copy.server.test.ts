import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ImportRefusedError } from '#app/domain/processing/import.server.ts'
import { Box3, Mesh, type Object3D } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { afterAll, describe, expect, it } from 'vitest'

import { encodePng } from '../../../server/nodeodm-simulator/png.ts'
import { zipBytes } from '../../../tests/helpers/rasters.ts'
import { ModelCopyError, objZipToGlb } from './model-copy.server.ts'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kestrel-model-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const OBJ = `mtllib model.mtl
v 0 0 0
v 10 0 0
v 10 0 8
v 0 0 8
v 5 4 4
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vt 0.5 0.5
usemtl ground
f 1/1 2/2 3/3
f 1/1 3/3 4/4
f 1/1 2/2 5/5
`
const MTL = 'newmtl ground\nKd 1 1 1\nmap_Kd textures/ground.png\n'

function texture() {
  const rgba = new Uint8Array(8 * 8 * 4).fill(180)
  return encodePng(8, 8, 4, rgba)
}

function writeZip(name: string, entries: Record<string, string | Uint8Array>) {
  const file = path.join(dir, name)
  fs.writeFileSync(file, zipBytes(entries))
  return file
}

/** GLTFLoader in Node: the texture's image is decoded by no browser, so it becomes a stand-in bitmap. */
async function loadWithThree(glb: Buffer) {
  const g = globalThis as unknown as { createImageBitmap?: unknown; self?: unknown }
  const had = { bitmap: g.createImageBitmap, self: g.self }
  g.self = globalThis
  g.createImageBitmap = async (blob: Blob) => {
    // The texture's bytes reach here: the PNG the ZIP held.
    const head = new Uint8Array(await blob.arrayBuffer()).subarray(1, 4)
    if (new TextDecoder().decode(head) !== 'PNG') throw new Error('not a PNG texture')
    return { width: 8, height: 8, close() {} }
  }
  try {
    const loader = new GLTFLoader()
    const buffer = new Uint8Array(glb).buffer
    return await loader.parseAsync(buffer, '')
  } finally {
    g.createImageBitmap = had.bitmap
    g.self = had.self
  }
}

describe('OBJ ZIP → GLB viewing copy', () => {
  it('turns an OBJ + MTL + texture ZIP into a GLB that three.js loads, textured', async () => {
    const zip = writeZip('model.zip', {
      'odm_texturing/model.obj': OBJ,
      'odm_texturing/model.mtl': MTL,
      'odm_texturing/textures/ground.png': texture(),
      'odm_texturing/readme.txt': 'ignored',
    })
    const out = path.join(dir, 'model.glb')
    await objZipToGlb(zip, out)
    const glb = fs.readFileSync(out)
    expect(glb.toString('latin1', 0, 4)).toBe('glTF')
    const gltf = await loadWithThree(glb)
    const meshes: Mesh[] = []
    gltf.scene.traverse((o: Object3D) => {
      if (o instanceof Mesh) meshes.push(o)
    })
    expect(meshes.length).toBeGreaterThan(0)
    const triangles = meshes.reduce(
      (n, m) => n + (m.geometry.index?.count ?? m.geometry.attributes.position!.count) / 3,
      0,
    )
    expect(triangles).toBe(3)
    const size = new Box3().setFromObject(gltf.scene).getSize(new (await import('three')).Vector3())
    expect([size.x, size.y, size.z].map((v) => Math.round(v))).toEqual([10, 4, 8])
    const material = meshes[0]!.material as { map?: unknown }
    expect(material.map).toBeTruthy()
  })

  it('refuses a ZIP without exactly one OBJ, and one that leaves its folder', async () => {
    await expect(
      objZipToGlb(writeZip('none.zip', { 'a.mtl': MTL }), path.join(dir, 'x.glb')),
    ).rejects.toThrow(ModelCopyError)
    await expect(
      objZipToGlb(writeZip('two.zip', { 'a.obj': OBJ, 'b.obj': OBJ }), path.join(dir, 'x.glb')),
    ).rejects.toThrow('more than one OBJ')
    await expect(
      objZipToGlb(
        writeZip('escape.zip', { 'model.obj': OBJ, '../evil.png': texture() }),
        path.join(dir, 'x.glb'),
      ),
    ).rejects.toThrow(ImportRefusedError)
  })

  it('converts in a child process with a heap ceiling and a time limit: a model beyond either is refused, the server goes on', async () => {
    // A 448 × 448 grid: 200,704 vertices, 400,000 triangles (11 MB of OBJ).
    const side = 448
    const lines = ['mtllib model.mtl']
    for (let i = 0; i < side; i++) for (let j = 0; j < side; j++) lines.push(`v ${i} ${j} ${(i * j) % 7}`)
    lines.push('usemtl ground')
    for (let i = 0; i + 1 < side; i++)
      for (let j = 0; j + 1 < side; j++) {
        const a = i * side + j + 1
        lines.push(`f ${a} ${a + 1} ${a + side}`, `f ${a + 1} ${a + side + 1} ${a + side}`)
      }
    const zip = writeZip('grid.zip', {
      'grid.obj': lines.join('\n'),
      'model.mtl': 'newmtl ground\nKd 1 1 1\n',
    })
    const out = path.join(dir, 'grid.glb')
    await expect(objZipToGlb(zip, out, { heapMb: 24 })).rejects.toThrow(
      'The OBJ needs more than 24 MB to convert',
    )
    await expect(objZipToGlb(zip, out, { timeoutMs: 200 })).rejects.toThrow(/took longer than/)
    expect(fs.existsSync(out)).toBe(false)
  })
})
