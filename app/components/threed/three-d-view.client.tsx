/**
 * The 3D view's canvas (three.js; loaded only on this page): the textured model (GLB or 3D Tiles)
 * and the point clouds (COPC nodes or a thinned copy, by Range), orbit / pan / zoom by mouse and
 * touch, reset, colour by RGB or height (legend in metres), point size, a point budget, and the
 * distance and height difference between two picked points. Z is up; the origin is the clouds' centre.
 */
import { RAMP_GRADIENT, rampColour } from '#app/domain/deliverables/elevation-ramp.ts'
import {
  DESKTOP_POINT_BUDGET,
  PHONE_POINT_BUDGET,
  POINT_BUDGETS,
  type CloudFacts,
  type ThreeDSource,
} from '#app/domain/threed/three-d.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import { TilesRenderer } from '3d-tiles-renderer'
import lazPerfWasm from 'laz-perf/lib/laz-perf.wasm'
import { useEffect, useRef, useState } from 'react'
import * as THREE from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'

import {
  loadCopc,
  loadThinnedLas,
  originOf,
  rangeStats,
  srgbToLinear,
  type CloudChunk,
} from './point-sources.ts'

type ColourMode = 'rgb' | 'height'
type Facted = Extract<ThreeDSource, { facts: CloudFacts }>

const STILL_WIDTH = 960

function isPhone() {
  return window.matchMedia('(max-width: 640px), (pointer: coarse)').matches
}

/** Colours of a chunk by height over [min, max] (the legend's range). */
function heightColours(positions: Float32Array, min: number, max: number) {
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

function metres(value: number) {
  return `${formatNumber(value, 2)} m`
}

interface Scene {
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

export function ThreeDView({
  sources,
  stillUploadUrl,
}: {
  sources: ThreeDSource[]
  /** Where the first browser that drew the view leaves its still image (signed in; null: none). */
  stillUploadUrl: string | null
}) {
  const host = useRef<HTMLDivElement>(null)
  const state = useRef<Scene | null>(null)
  const [budget, setBudget] = useState<number | null>(null)
  const [colour, setColour] = useState<ColourMode>('rgb')
  const [pointSize, setPointSize] = useState(2)
  const [showModel, setShowModel] = useState(true)
  const [showCloud, setShowCloud] = useState(true)
  const [measuring, setMeasuring] = useState(false)
  const [picks, setPicks] = useState<THREE.Vector3[]>([])
  const [status, setStatus] = useState('Loading…')
  const [drawn, setDrawn] = useState({ points: 0, models: 0 })
  const [error, setError] = useState<string | null>(null)

  const clouds = sources.filter((s): s is Facted => s.type === 'copc' || s.type === 'las')
  const hasModel = sources.some((s) => s.type === 'glb' || s.type === 'tiles')
  const origin = originOf(clouds.map((c) => c.facts))
  const zRange = clouds.length
    ? {
        min: Math.min(...clouds.map((c) => c.facts.min[2])),
        max: Math.max(...clouds.map((c) => c.facts.max[2])),
      }
    : null
  const sourceKey = sources.map((s) => s.url).join('|')

  // The budget a phone starts with; chosen once in the browser.
  useEffect(() => setBudget(isPhone() ? PHONE_POINT_BUDGET : DESKTOP_POINT_BUDGET), [])

  // The renderer, camera and controls: made once.
  useEffect(() => {
    const element = host.current
    if (!element) return
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
    state.current = s
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
    let frames = 0
    let since = performance.now()
    const loop = () => {
      frame = requestAnimationFrame(loop)
      controls.update()
      for (const t of s.tiles) {
        camera.updateMatrixWorld()
        t.update()
      }
      if (!s.dirty && !s.tiles.length) return
      s.dirty = false
      renderer.render(scene, camera)
      frames++
      const now = performance.now()
      if (now - since > 1000) {
        element.dataset.fps = String(Math.round((frames * 1000) / (now - since)))
        frames = 0
        since = now
      }
    }
    loop()
    return () => {
      cancelAnimationFrame(frame)
      observer.disconnect()
      controls.dispose()
      for (const t of s.tiles) t.dispose()
      renderer.dispose()
      renderer.domElement.remove()
      state.current = null
    }
  }, [])

  // The sources: loaded again when the budget changes.
  useEffect(() => {
    const s = state.current
    if (!s || budget === null) return
    const controller = new AbortController()
    const { signal } = controller
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
    setDrawn({ points: 0, models: 0 })
    setError(null)
    setStatus('Loading…')
    rangeStats.bytes = 0
    rangeStats.requests = 0
    let points = 0
    const material = new THREE.PointsMaterial({ size: pointSize, sizeAttenuation: false, vertexColors: true })
    const addChunk = (chunk: CloudChunk) => {
      if (signal.aborted) return
      const geometry = new THREE.BufferGeometry()
      geometry.setAttribute('position', new THREE.BufferAttribute(chunk.positions, 3))
      const shown =
        colour === 'height' && zRange
          ? heightColours(chunk.positions, zRange.min - origin[2], zRange.max - origin[2])
          : chunk.colours
      geometry.setAttribute('color', new THREE.BufferAttribute(shown, 3))
      geometry.computeBoundingSphere()
      const cloud = new THREE.Points(geometry, material)
      s.clouds.add(cloud)
      s.chunks.push({ points: cloud, rgb: chunk.colours })
      points += chunk.count
      setDrawn((d) => ({ ...d, points }))
      if (s.chunks.length === 1) frameAll(s)
      s.dirty = true
    }
    const perCloud = Math.floor(budget / Math.max(1, clouds.length))
    const jobs: Array<Promise<unknown>> = clouds.map((c) =>
      c.type === 'copc'
        ? loadCopc(c.url, origin, perCloud, signal, addChunk, lazPerfWasm)
        : loadThinnedLas(c.url, origin, perCloud, signal, addChunk),
    )
    for (const source of sources) {
      if (source.type === 'glb') jobs.push(loadGlb(s, source.url, origin, signal))
      if (source.type === 'tiles') jobs.push(Promise.resolve(loadTiles(s, source.url)))
    }
    void Promise.allSettled(jobs).then((results) => {
      if (signal.aborted) return
      const failed = results.find((r) => r.status === 'rejected')
      if (failed)
        setError(`Part of the view could not be loaded: ${String((failed as PromiseRejectedResult).reason)}`)
      setDrawn({ points, models: s.models.children.length })
      frameAll(s)
      setStatus(`Drawn · ${formatNumber(rangeStats.bytes / 1024 / 1024, 1)} MB read`)
      host.current?.setAttribute('data-ready', 'true')
      if (stillUploadUrl && !failed) void uploadStill(s, stillUploadUrl)
    })
    return () => controller.abort()
    // Colour and point size change materials in place (below), not the loading.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sourceKey, budget])

  // Colour mode, point size and visibility: in place.
  useEffect(() => {
    const s = state.current
    if (!s) return
    for (const { points, rgb } of s.chunks) {
      const positions = points.geometry.getAttribute('position').array as Float32Array
      const shown =
        colour === 'height' && zRange
          ? heightColours(positions, zRange.min - origin[2], zRange.max - origin[2])
          : rgb
      points.geometry.setAttribute('color', new THREE.BufferAttribute(shown, 3))
      ;(points.material as THREE.PointsMaterial).size = pointSize
    }
    s.clouds.visible = showCloud
    s.models.visible = showModel
    for (const t of s.tiles) t.group.visible = showModel
    s.dirty = true
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [colour, pointSize, showCloud, showModel, drawn.points])

  // Picking: a click (not a drag) picks the nearest point or model surface under the pointer.
  useEffect(() => {
    const s = state.current
    if (!s || !measuring) return
    const canvas = s.renderer.domElement
    let down: { x: number; y: number } | null = null
    const onDown = (e: PointerEvent) => (down = { x: e.clientX, y: e.clientY })
    const onUp = (e: PointerEvent) => {
      if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 6) return
      const rect = canvas.getBoundingClientRect()
      const ndc = new THREE.Vector2(
        ((e.clientX - rect.left) / rect.width) * 2 - 1,
        -((e.clientY - rect.top) / rect.height) * 2 + 1,
      )
      const raycaster = new THREE.Raycaster()
      raycaster.setFromCamera(ndc, s.camera)
      const distance = s.camera.position.distanceTo(s.controls.target)
      raycaster.params.Points = { threshold: Math.max(0.05, distance * 0.01) }
      const targets = [
        ...(showCloud ? [s.clouds] : []),
        ...(showModel ? [s.models, ...s.tiles.map((t) => t.group)] : []),
      ]
      const hit = raycaster.intersectObjects(targets, true)[0]
      if (!hit) return
      const point =
        hit.object instanceof THREE.Points && hit.index !== undefined
          ? new THREE.Vector3()
              .fromBufferAttribute(hit.object.geometry.getAttribute('position'), hit.index)
              .applyMatrix4(hit.object.matrixWorld)
          : hit.point.clone()
      setPicks((p) => (p.length >= 2 ? [point] : [...p, point]))
    }
    canvas.addEventListener('pointerdown', onDown)
    canvas.addEventListener('pointerup', onUp)
    return () => {
      canvas.removeEventListener('pointerdown', onDown)
      canvas.removeEventListener('pointerup', onUp)
    }
  }, [measuring, showCloud, showModel])

  // The picked points and the line between them.
  useEffect(() => {
    const s = state.current
    if (!s) return
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
  }, [picks])

  const distance = picks.length === 2 ? picks[0]!.distanceTo(picks[1]!) : null
  const rise = picks.length === 2 ? picks[1]!.z - picks[0]!.z : null

  return (
    <section className="card overflow-hidden" aria-label="3D view" data-testid="three-d-view">
      <div
        ref={host}
        className="relative h-[60vh] min-h-[320px] w-full bg-ink-50"
        data-points={drawn.points}
        data-models={drawn.models}
        data-testid="three-d-host"
      />
      <div className="space-y-3 border-t border-ink-100 p-3 text-sm sm:p-4">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <button
            type="button"
            className="btn-secondary btn-sm"
            onClick={() => state.current && resetView(state.current)}
          >
            Reset view
          </button>
          <button
            type="button"
            className={measuring ? 'btn-primary btn-sm' : 'btn-secondary btn-sm'}
            aria-pressed={measuring}
            onClick={() => {
              setMeasuring((m) => !m)
              setPicks([])
            }}
          >
            {measuring ? 'Stop measuring' : 'Measure'}
          </button>
          {hasModel && clouds.length ? (
            <>
              <label className="flex items-center gap-1">
                <input type="checkbox" checked={showModel} onChange={(e) => setShowModel(e.target.checked)} />{' '}
                Model
              </label>
              <label className="flex items-center gap-1">
                <input type="checkbox" checked={showCloud} onChange={(e) => setShowCloud(e.target.checked)} />{' '}
                Point cloud
              </label>
            </>
          ) : null}
        </div>
        {clouds.length ? (
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <label className="flex items-center gap-2">
              Colour
              <select
                className="input py-1"
                value={colour}
                onChange={(e) => setColour(e.target.value as ColourMode)}
              >
                <option value="rgb">RGB</option>
                <option value="height">Height</option>
              </select>
            </label>
            <label className="flex items-center gap-2">
              Point size
              <input
                type="range"
                min={1}
                max={8}
                value={pointSize}
                onChange={(e) => setPointSize(Number(e.target.value))}
                aria-valuetext={`${pointSize} px`}
              />
            </label>
            <label className="flex items-center gap-2">
              Point budget
              <select
                className="input py-1"
                value={budget ?? DESKTOP_POINT_BUDGET}
                onChange={(e) => setBudget(Number(e.target.value))}
              >
                {POINT_BUDGETS.map((b) => (
                  <option key={b} value={b}>
                    {formatNumber(b)}
                  </option>
                ))}
              </select>
            </label>
          </div>
        ) : null}
        {colour === 'height' && zRange ? (
          <div data-testid="height-legend">
            <div className="h-3 w-full max-w-sm rounded" style={{ background: RAMP_GRADIENT }} />
            <div className="flex max-w-sm justify-between text-xs text-ink-600">
              <span>{metres(zRange.min)}</span>
              <span>{metres(zRange.max)}</span>
            </div>
          </div>
        ) : null}
        {measuring ? (
          <p data-testid="measure-result" aria-live="polite">
            {distance !== null && rise !== null
              ? `Distance ${metres(distance)} · height difference ${metres(rise)}`
              : picks.length === 1
                ? 'Pick the second point.'
                : 'Pick two points on the model or the cloud.'}
          </p>
        ) : null}
        <p className="text-xs text-ink-600" aria-live="polite">
          {formatNumber(drawn.points)} points drawn · {status}
        </p>
        {error ? <p className="text-sm text-red-700">{error}</p> : null}
      </div>
    </section>
  )
}

/** Looks at everything drawn from the south-west, above; this is the reset view too. */
function frameAll(s: Scene) {
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

function resetView(s: Scene) {
  s.camera.position.copy(s.home.position)
  s.controls.target.copy(s.home.target)
  s.controls.update()
  s.dirty = true
}

/** A GLB (Y up, as glTF is) turned Z up. */
async function loadGlb(s: Scene, url: string, origin: [number, number, number], signal: AbortSignal) {
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
function loadTiles(s: Scene, url: string) {
  const tiles = new TilesRenderer(url)
  tiles.fetchOptions = { cache: 'no-store' }
  tiles.setCamera(s.camera)
  tiles.setResolutionFromRenderer(s.camera, s.renderer)
  tiles.addEventListener('load-tile-set', () => {
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
  tiles.addEventListener('load-model', () => (s.dirty = true))
  s.scene.add(tiles.group)
  s.tiles.push(tiles)
}

/** The first view, reduced to STILL_WIDTH wide, left for visitors without JavaScript. */
async function uploadStill(s: Scene, url: string) {
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
