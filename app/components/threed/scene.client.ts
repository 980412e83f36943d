/**
 * The 3D view's three.js scene (browser only): the renderer, camera and orbit controls with
 * a render loop that draws only when something changed, and the loaders for the textured
 * model (GLB, 3D Tiles), the framing, and the still image left for visitors without JavaScript.
 * Z is up; the origin is the clouds' centre.
 */
import { rampColour } from '#app/domain/deliverables/elevation-ramp.ts'
import { TilesRenderer } from '3d-tiles-renderer'
import * as THREE from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'

import { srgbToLinear } from './point-sources.ts'

const STILL_WIDTH = 960

export interface Scene {
  renderer: THREE.WebGLRenderer
  camera: THREE.PerspectiveCamera
  controls: OrbitControls
  scene: THREE.Scene
  clouds: THREE.Group
  models: THREE.Group
  markers: THREE.Group
  tiles: TilesRenderer[]
  chunks: Array<{ points: THREE.Points; rgb: Float32Array }>
  home: { position: THREE.Vector3; target: THREE.Vector3 }
  dirty: boolean
}

/** The renderer, camera and controls in `element`, drawing until `dispose`. */
export function createScene(element: HTMLDivElement) {
  const renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: true })
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2))
  renderer.setSize(element.clientWidth, element.clientHeight)
  renderer.domElement.setAttribute('data-testid', 'three-d-canvas')
  renderer.domElement.style.touchAction = 'none'
  element.appendChild(renderer.domElement)
  const scene = new THREE.Scene()
  scene.background = new THREE.Color(0xf1f5f9)
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.2))
  const camera = new THREE.PerspectiveCamera(50, element.clientWidth / element.clientHeight, 0.1, 1e6)
  camera.up.set(0, 0, 1)
  const controls = new OrbitControls(camera, renderer.domElement)
  controls.enableDamping = true
  const groups = { clouds: new THREE.Group(), models: new THREE.Group(), markers: new THREE.Group() }
  scene.add(groups.clouds, groups.models, groups.markers)
  const s: Scene = {
    renderer,
    camera,
    controls,
    scene,
    ...groups,
    tiles: [],
    chunks: [],
    home: { position: new THREE.Vector3(0, -200, 150), target: new THREE.Vector3() },
    dirty: true,
  }
  controls.addEventListener('change', () => (s.dirty = true))
  const resize = () => {
    renderer.setSize(element.clientWidth, element.clientHeight)
    camera.aspect = element.clientWidth / Math.max(1, element.clientHeight)
    camera.updateProjectionMatrix()
    for (const t of s.tiles) t.setResolutionFromRenderer(camera, renderer)
    s.dirty = true
  }
  const observer = new ResizeObserver(resize)
  observer.observe(element)
  let frame = 0
  // Drawn only when something changed (camera, a loaded model or tile): an idle view costs no CPU or battery.
  const loop = () => {
    frame = requestAnimationFrame(loop)
    controls.update()
    if (!s.dirty) return
    s.dirty = false
    camera.updateMatrixWorld()
    for (const t of s.tiles) t.update()
    renderer.render(scene, camera)
  }
  loop()
  const dispose = () => {
    cancelAnimationFrame(frame)
    observer.disconnect()
    controls.dispose()
    for (const t of s.tiles) t.dispose()
    renderer.dispose()
    renderer.domElement.remove()
  }
  return { scene: s, dispose }
}

/** Colours of a chunk by height over [min, max] (the legend's range). */
export function heightColours(positions: Float32Array, min: number, max: number) {
  const out = new Float32Array(positions.length)
  const span = max - min || 1
  for (let i = 0; i < positions.length; i += 3) {
    const [r, g, b] = rampColour((positions[i + 2]! - min) / span)
    out[i] = srgbToLinear(r / 255)
    out[i + 1] = srgbToLinear(g / 255)
    out[i + 2] = srgbToLinear(b / 255)
  }
  return out
}

/** Takes every loaded cloud, model and tileset out of the scene (before loading afresh). */
export function clearSources(s: Scene) {
  for (const group of [s.clouds, s.models]) {
    for (const child of [...group.children]) {
      group.remove(child)
      child.traverse((o) => {
        if (o instanceof THREE.Mesh || o instanceof THREE.Points) o.geometry.dispose()
      })
    }
  }
  for (const t of s.tiles) t.dispose()
  s.tiles = []
  s.chunks = []
}

/** The nearest point or model surface under the pointer among `targets`; null when none. */
export function pickAt(s: Scene, event: PointerEvent, targets: THREE.Object3D[]) {
  const rect = s.renderer.domElement.getBoundingClientRect()
  const ndc = new THREE.Vector2(
    ((event.clientX - rect.left) / rect.width) * 2 - 1,
    -((event.clientY - rect.top) / rect.height) * 2 + 1,
  )
  const raycaster = new THREE.Raycaster()
  raycaster.setFromCamera(ndc, s.camera)
  const distance = s.camera.position.distanceTo(s.controls.target)
  raycaster.params.Points = { threshold: Math.max(0.05, distance * 0.01) }
  const hit = raycaster.intersectObjects(targets, true)[0]
  if (!hit) return null
  return hit.object instanceof THREE.Points && hit.index !== undefined
    ? new THREE.Vector3()
        .fromBufferAttribute(hit.object.geometry.getAttribute('position'), hit.index)
        .applyMatrix4(hit.object.matrixWorld)
    : hit.point.clone()
}

/** The picked points and the line between them. */
export function drawPicks(s: Scene, picks: THREE.Vector3[]) {
  s.markers.clear()
  const size = s.camera.position.distanceTo(s.controls.target) * 0.006
  for (const p of picks) {
    const marker = new THREE.Mesh(
      new THREE.SphereGeometry(size, 12, 8),
      new THREE.MeshBasicMaterial({ color: 0xdc2626 }),
    )
    marker.position.copy(p)
    s.markers.add(marker)
  }
  if (picks.length === 2)
    s.markers.add(
      new THREE.Line(
        new THREE.BufferGeometry().setFromPoints(picks),
        new THREE.LineBasicMaterial({ color: 0xdc2626 }),
      ),
    )
  s.dirty = true
}

/** Looks at everything drawn from the south-west, above; this is the reset view too. */
export function frameAll(s: Scene) {
  const box = new THREE.Box3()
  box.expandByObject(s.clouds)
  box.expandByObject(s.models)
  for (const t of s.tiles) box.expandByObject(t.group)
  if (box.isEmpty()) return
  const centre = box.getCenter(new THREE.Vector3())
  const radius = Math.max(1, box.getSize(new THREE.Vector3()).length() / 2)
  const distance = radius / Math.sin(((s.camera.fov / 2) * Math.PI) / 180)
  s.home = {
    target: centre,
    position: centre.clone().add(new THREE.Vector3(-0.45, -0.75, 0.5).normalize().multiplyScalar(distance)),
  }
  s.camera.near = Math.max(0.01, distance / 1000)
  s.camera.far = distance * 20
  s.camera.updateProjectionMatrix()
  resetView(s)
}

export function resetView(s: Scene) {
  s.camera.position.copy(s.home.position)
  s.controls.target.copy(s.home.target)
  s.controls.update()
  s.dirty = true
}

/** A GLB (Y up, as glTF is) turned Z up. */
export async function loadGlb(s: Scene, url: string, origin: [number, number, number], signal: AbortSignal) {
  const response = await fetch(url, { signal })
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  const gltf = await new GLTFLoader().parseAsync(await response.arrayBuffer(), '')
  if (signal.aborted) return
  const model = gltf.scene
  // A survey mesh is looked at from any side (under an overhang, inside a pit): both faces drawn.
  model.traverse((o) => {
    if (o instanceof THREE.Mesh)
      for (const m of Array.isArray(o.material) ? o.material : [o.material]) m.side = THREE.DoubleSide
  })
  model.rotation.x = Math.PI / 2
  model.updateMatrixWorld(true)
  const box = new THREE.Box3().setFromObject(model)
  const centre = box.getCenter(new THREE.Vector3())
  // Models in a projected CRS (ODM's _geo) sit at their coordinates: moved to the clouds' origin.
  const projected = Math.abs(centre.x) > 10_000 || Math.abs(centre.y) > 10_000
  if (projected) model.position.set(-origin[0], -origin[1], -origin[2])
  // Otherwise its centre over the origin and its base on the ground (the clouds' lowest point).
  else model.position.set(-centre.x, -centre.y, -box.min.z)
  s.models.add(model)
  s.dirty = true
  frameAll(s)
}

/** ODM's 3D Tiles (earth-centred): the tileset's centre brought to the origin, its local up as Z. */
export function loadTiles(s: Scene, url: string) {
  const tiles = new TilesRenderer(url)
  tiles.fetchOptions = { cache: 'no-store' }
  tiles.setCamera(s.camera)
  tiles.setResolutionFromRenderer(s.camera, s.renderer)
  // 3d-tiles-renderer 0.5's event names ('load-tile-set' is the 0.3 name, never sent by 0.5).
  tiles.addEventListener('load-tileset', ({ tileset }) => {
    // Placed and framed once, by the root tileset (a child tileset loads later, as the camera nears).
    if (tileset !== tiles.rootTileset) return
    const sphere = new THREE.Sphere()
    if (!tiles.getBoundingSphere(sphere)) return
    const centre = sphere.center.clone()
    if (centre.length() > 1_000_000) {
      const up = centre.clone().normalize()
      const q = new THREE.Quaternion().setFromUnitVectors(up, new THREE.Vector3(0, 0, 1))
      tiles.group.quaternion.copy(q)
      tiles.group.position.copy(centre.applyQuaternion(q).multiplyScalar(-1))
    } else {
      tiles.group.position.copy(centre.multiplyScalar(-1))
    }
    tiles.group.updateMatrixWorld(true)
    frameAll(s)
  })
  // A tile loaded or a tileset read: the library asks for another update and draw.
  tiles.addEventListener('needs-update', () => (s.dirty = true))
  s.scene.add(tiles.group)
  s.tiles.push(tiles)
}

/** The first view, reduced to STILL_WIDTH wide, left for visitors without JavaScript. */
export async function uploadStill(s: Scene, url: string) {
  s.renderer.render(s.scene, s.camera)
  const source = s.renderer.domElement
  const scale = Math.min(1, STILL_WIDTH / source.width)
  const canvas = document.createElement('canvas')
  canvas.width = Math.round(source.width * scale)
  canvas.height = Math.round(source.height * scale)
  canvas.getContext('2d')?.drawImage(source, 0, 0, canvas.width, canvas.height)
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'))
  if (!blob) return
  await fetch(url, { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: blob }).catch(() => {})
}
